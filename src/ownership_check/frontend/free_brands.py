"""E0308 for a prepared launch that a function reads from an enclosing scope, as a type checker sees it.

The flow analysis follows one function body at a time, so a prepared launch the body only *reads* -- a module
global, or a variable captured from an enclosing function -- arrives with no known origin:

    prep = vecadd.prepare(config, dev)          # module level (or in an enclosing function)

    def step() -> None:
        vecmul.launch(prep, stream, a, b, c)    # E0308: `prep` was prepared by `vecadd`

mypy types the variable by its binding (`PreparedLaunch` branded `vecadd`) wherever it is read, so the mypy
plugin reports that launch whether or not, or however, `step` is called.  This pass gives the CLI the same
view with the same rule: a name a function reads without binding it, whose defining scope (the nearest
enclosing function that binds it, else the module) binds it exactly once, by `name = kernel.prepare(...)`, and
that no `global` / `nonlocal` declaration rebinds elsewhere, is a prepared launch of that kernel.  Python's own
`symtable` says which scope a name belongs to.  A diagnostic the flow analysis also produced (the nested
function called directly, whose effects are replayed at the call) is reported once.
"""

from __future__ import annotations

import ast
import symtable
from collections.abc import Iterator

from ownership_check.core import messages
from ownership_check.diagnostics import Diagnostic
from ownership_check.frontend.ast_lowering import FileContext
from ownership_check.frontend.ast_walk import all_nodes, memoized_walk

_LAUNCH_METHODS = frozenset({"launch", "launch_async"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _prepare_bindings(tree: ast.Module) -> dict[str, int]:
    """How many `name = x.prepare(...)` statements bind each name anywhere in the file (the cheap gate)."""
    found: dict[str, int] = {}
    for node in all_nodes(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and _prepared_kernel_expr(node) is not None:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name):
                found[target.id] = found.get(target.id, 0) + 1
    return found


def _prepared_kernel_expr(stmt: ast.Assign | ast.AnnAssign) -> ast.expr | None:
    """`K` of `name = K.prepare(...)` (one plain-name target), else None."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) != 1:
        return None
    value = stmt.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "prepare":
        return value.func.value
    return None


def _body_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of one scope's own code: nested functions, lambdas and classes are other scopes (walked once per
    file: `ast_walk.memoized_walk`)."""
    return iter(memoized_walk("free-brands-scope", scope, lambda: _scope_walk(scope)))


def _scope_walk(scope: ast.AST) -> Iterator[ast.AST]:
    """`_body_nodes`, walking."""
    roots: list[ast.AST]
    if isinstance(scope, ast.Module):
        roots = list(scope.body)
    elif isinstance(scope, ast.Lambda):
        roots = [scope.body]
    elif isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        roots = list(scope.body)
    else:
        roots = []
    stack = list(reversed(roots))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _binding_kernel(scope: ast.AST, name: str) -> ast.expr | None:
    """`K` when `scope`'s own code binds `name` exactly once and that binding is `name = K.prepare(...)`."""
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        args = scope.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        if any(p is not None and p.arg == name for p in params):
            return None
    kernel: ast.expr | None = None
    bindings = 0
    for node in _body_nodes(scope):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store | ast.Del):
            bindings += 1
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
            target = node.target if isinstance(node, ast.AnnAssign) else target
            if isinstance(target, ast.Name) and target.id == name:
                kernel = _prepared_kernel_expr(node)
        elif isinstance(node, _SCOPES) and getattr(node, "name", None) == name:
            bindings += 1
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bindings += sum(1 for alias in node.names if (alias.asname or alias.name).split(".")[0] == name)
    return kernel if bindings == 1 else None


def _declared_names(tree: ast.Module) -> frozenset[str]:
    """The names some `global` or `nonlocal` statement of the file declares (such a name may be rebound anywhere)."""
    return frozenset(
        name for node in all_nodes(tree) if isinstance(node, ast.Global | ast.Nonlocal) for name in node.names
    )


class _Scopes:
    """Each function scope of the file with its `symtable` table, found by walking both trees together."""

    def __init__(self, tree: ast.Module, table: symtable.SymbolTable) -> None:
        self.tables: dict[int, symtable.SymbolTable] = {}
        self.nodes: dict[int, ast.AST] = {}
        self.parents: dict[int, ast.AST] = {}
        self._pair(tree, table)

    def _pair(self, scope: ast.AST, table: symtable.SymbolTable) -> None:
        self.tables[id(scope)] = table
        self.nodes[id(scope)] = scope
        children = [c for c in table.get_children() if c.get_type() in ("function", "class")]
        nested = [n for n in _body_nodes(scope) if isinstance(n, _SCOPES)]
        for node in nested:
            kind = "class" if isinstance(node, ast.ClassDef) else "function"
            name = "lambda" if isinstance(node, ast.Lambda) else node.name
            match = next((c for c in children if c.get_type() == kind and c.get_name() == name
                          and c.get_lineno() == node.lineno), None)
            if match is None:
                continue
            children.remove(match)
            self.parents[id(node)] = scope
            self._pair(node, match)


def free_brand_mismatches(ctx: FileContext, tree: ast.Module, already: list[Diagnostic]) -> list[Diagnostic]:
    """E0308 of launches whose prepared launch is a name from an enclosing scope (see the module docstring), less
    those `already` holds (same code and position)."""
    candidates = {name for name, count in _prepare_bindings(tree).items() if count == 1}
    candidates -= _declared_names(tree)
    if not candidates:
        return []
    try:
        table = symtable.symtable(ctx.source, ctx.path, "exec")
    except (SyntaxError, ValueError):
        return []
    scopes = _Scopes(tree, table)
    seen = {(d.code, d.span.line, d.span.column) for d in already}
    out: list[Diagnostic] = []
    for scope_id, scope_table in scopes.tables.items():
        if scope_table.get_type() != "function":
            continue
        scope = scopes.nodes[scope_id]
        for node in _body_nodes(scope):
            found = _check_launch(ctx, tree, scopes, scope, node, candidates)
            if found is not None and (found.code, found.span.line, found.span.column) not in seen:
                seen.add((found.code, found.span.line, found.span.column))
                out.append(found)
    return out


def _check_launch(
    ctx: FileContext, tree: ast.Module, scopes: _Scopes, scope: ast.AST, node: ast.AST, candidates: set[str]
) -> Diagnostic | None:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
        return None
    if node.func.attr not in _LAUNCH_METHODS or not isinstance(node.args[0], ast.Name):
        return None
    name = node.args[0].id
    if name not in candidates:
        return None
    launched = ctx.kernel(node.func.value)
    if launched is None or launched[1].track != "simt" or launched[1].autotuned:
        return None
    defining = _defining_scope(tree, scopes, scope, name)
    if defining is None:
        return None
    kernel_expr = _binding_kernel(defining, name)
    prepared = ctx.kernel(kernel_expr) if kernel_expr is not None else None
    if prepared is None or prepared[1].name == launched[1].name:
        return None
    return messages.brand_mismatch(
        ctx.path, name, ctx.span(node.args[0]), launched[1].name, prepared[1].name, ctx.attr_span(node.func)
    )


def _defining_scope(tree: ast.Module, scopes: _Scopes, scope: ast.AST, name: str) -> ast.AST | None:
    """The scope `name` read in `scope` belongs to, when that is not `scope` itself (a free or global name)."""
    table = scopes.tables[id(scope)]
    try:
        symbol = table.lookup(name)
    except KeyError:
        return None
    if symbol.is_global():
        return tree
    if not symbol.is_free():
        return None
    current = scopes.parents.get(id(scope))
    while current is not None and not isinstance(current, ast.Module):
        outer = scopes.tables[id(current)]
        if outer.get_type() == "function":
            try:
                if outer.lookup(name).is_local():
                    return current
            except KeyError:
                pass
        current = scopes.parents.get(id(current))
    return None
