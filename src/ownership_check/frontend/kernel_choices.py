"""Kernels a launch may run when its receiver is chosen from a collection, as the `ast` front end sees them: a
subscript of a module-level dict display of kernels (`KERNELS[name].launch(...)`), a name bound only to such a
subscript (`kernel, prep = KERNELS[k], PREPARED[k]`) or to the items of a display of kernels (`for kernel in
(double, triple):`).  The launch is lowered once per kernel (`calls.kernel_choice`), so its arguments are checked
against each kernel's signature, and a prepared launch against each kernel's brand."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator

from ownership_check.core import static_rows
from ownership_check.core.static_rows import Row
from ownership_check.frontend.prescan import KernelSummary

#: A dict display of kernels: each literal key's kernel, in order.
KernelTable = dict[object, KernelSummary]

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def kernel_tables(
    module: ast.Module, kernel_of: Callable[[ast.expr], KernelSummary | None]
) -> dict[str, KernelTable]:
    """Module-level names bound once, at the top level, to a dict display with literal keys whose values are all
    kernels, and never changed in place (no store under a key, no method call on the name, no `global` rebinding)."""
    bound: dict[str, int] = {}
    displays: dict[str, ast.Dict] = {}
    for stmt in module.body:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                bound[target.id] = bound.get(target.id, 0) + 1
                if isinstance(value, ast.Dict) and value.keys:
                    displays[target.id] = value
    changed: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            if isinstance(node.value, ast.Name):
                changed.add(node.value.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and isinstance(
            node.ctx, ast.Load
        ) and node.attr not in ("get", "keys", "values", "items"):
            changed.add(node.value.id)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            changed.update(node.names)
    tables: dict[str, KernelTable] = {}
    for name, display in displays.items():
        if bound.get(name) != 1 or name in changed:
            continue
        table: KernelTable = {}
        for key, value in zip(display.keys, display.values, strict=True):
            kernel = kernel_of(value) if isinstance(value, ast.Name) else None
            if not isinstance(key, ast.Constant) or kernel is None:
                break
            table[key.value] = kernel
        else:
            tables[name] = table
    return tables


def subscript_choices(node: ast.expr, tables: dict[str, KernelTable], local: set[str]) -> tuple[KernelSummary, ...]:
    """The kernels `TABLE[key]` may be (the one under a literal key, else every one); () for anything else."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)) or isinstance(node.slice, ast.Slice):
        return ()
    table = tables.get(node.value.id)
    if table is None or node.value.id in local:
        return ()
    if isinstance(node.slice, ast.Constant) and node.slice.value in table:
        return (table[node.slice.value],)
    return _unique(table.values())


def keyed_rows(
    node: ast.expr, tables: dict[str, KernelTable], local: set[str]
) -> tuple[str, tuple[tuple[object, KernelSummary], ...]] | None:
    """`TABLE[name]` of a name (not a literal key): the name and each of the table's keys with its kernel.  A
    launch `TABLE[name].launch(PREPARED[name], ...)` reads both under the one key the name holds, so it is lowered
    once per key with the name standing for that key (`static_rows.keyed_arms`), pairing each kernel with the
    prepared launch under its own key; else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Name)):
        return None
    table = tables.get(node.value.id)
    if table is None or node.value.id in local or len(table) < 2:
        return None
    return node.slice.id, tuple(table.items())


def value_choices(
    node: ast.expr,
    tables: dict[str, KernelTable],
    local: set[str],
    kernel_of: Callable[[ast.expr], KernelSummary | None],
) -> tuple[KernelSummary, ...]:
    """The kernels an assigned value may be: `TABLE[key]` (`subscript_choices`), a kernel's own name (`kernel =
    harmonic`, not a local), or a conditional expression whose arms are such (`pluck if bass else damp`); ()
    for anything else."""
    if isinstance(node, ast.IfExp):
        body = value_choices(node.body, tables, local, kernel_of)
        orelse = value_choices(node.orelse, tables, local, kernel_of)
        return _unique((*body, *orelse)) if body and orelse else ()
    if isinstance(node, ast.Name):
        kernel = kernel_of(node) if node.id not in local else None
        return (kernel,) if kernel is not None else ()
    return subscript_choices(node, tables, local)


def _tuple_arms(node: ast.expr, length: int) -> list[list[ast.expr]] | None:
    """The items of each tuple display a value may be, `length` long each (a display, or a conditional
    expression whose every arm is one); else None."""
    if isinstance(node, ast.IfExp):
        body, orelse = _tuple_arms(node.body, length), _tuple_arms(node.orelse, length)
        return body + orelse if body is not None and orelse is not None else None
    if isinstance(node, ast.Tuple) and len(node.elts) == length:
        return None if any(isinstance(e, ast.Starred) for e in node.elts) else [list(node.elts)]
    return None


def name_choices(
    body: list[ast.stmt],
    tables: dict[str, KernelTable],
    local: set[str],
    kernel_of: Callable[[ast.expr], KernelSummary | None],
    rows_of: Callable[[ast.expr], list[Row[ast.expr]] | None] = lambda _node: None,
) -> dict[str, tuple[KernelSummary, ...]]:
    """The names of a function body bound only to kernels chosen from a table or a display, or named (each
    binding's kernels together, `value_choices`): `kernel = KERNELS[name]`, `kernel = pluck if bass else damp`,
    `kernel, prep = KERNELS[k], PREPARED[k]`, `for kernel in (double, triple)`, `for kernel in KERNELS.values()`,
    and a `for` over an iterable the source lists (`rows_of`,
    `static_iterables.iteration`: `for name, kernel in self.GRADIENTS`)."""
    found: dict[str, list[KernelSummary]] = {}
    stores: dict[str, int] = {}
    recognised: dict[str, int] = {}

    def bind(target: ast.expr, kernels: tuple[KernelSummary, ...]) -> None:
        if isinstance(target, ast.Name) and kernels:
            found.setdefault(target.id, []).extend(kernels)
            recognised[target.id] = recognised.get(target.id, 0) + 1

    for node in _nodes(body):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            stores[node.id] = stores.get(node.id, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            arms = _tuple_arms(value, len(target.elts)) if isinstance(target, ast.Tuple) else None
            if isinstance(target, ast.Tuple) and arms is not None:
                # `kernel, prep = (pluck, plans["pluck"]) if bass else (damp, plans["damp"])`: each item's arms
                for index, t in enumerate(target.elts):
                    each = [value_choices(arm[index], tables, local, kernel_of) for arm in arms]
                    bind(t, _unique(k for one in each for k in one) if all(each) else ())
            else:
                bind(target, value_choices(value, tables, local, kernel_of))
        elif isinstance(node, ast.For | ast.AsyncFor):
            kernels = _iterated_kernels(node.iter, tables, local, kernel_of)
            rows = rows_of(node.iter) if not kernels else None
            if rows:
                for name, listed in static_rows.column_kernels(
                    _target_names(node.target), rows, _display_items, kernel_of
                ).items():
                    bind(ast.Name(name), _unique(listed))
            else:
                bind(node.target, kernels)
    return {
        name: _unique(kernels)
        for name, kernels in found.items()
        if stores.get(name) == recognised.get(name)
    }


def _iterated_kernels(
    node: ast.expr,
    tables: dict[str, KernelTable],
    local: set[str],
    kernel_of: Callable[[ast.expr], KernelSummary | None],
) -> tuple[KernelSummary, ...]:
    if isinstance(node, ast.Tuple | ast.List) and node.elts:
        kernels = [kernel_of(e) if isinstance(e, ast.Name) else None for e in node.elts]
        return _unique(k for k in kernels if k is not None) if all(k is not None for k in kernels) else ()
    if (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "values"
        and isinstance(node.func.value, ast.Name) and not node.args and node.func.value.id not in local
    ):
        table = tables.get(node.func.value.id)
        return _unique(table.values()) if table is not None else ()
    return ()


def _target_names(target: ast.expr) -> list[str | None]:
    if isinstance(target, ast.Tuple | ast.List):
        return [e.id if isinstance(e, ast.Name) else None for e in target.elts]
    return [target.id if isinstance(target, ast.Name) else None]


def _display_items(node: ast.expr) -> list[ast.expr] | None:
    return list(node.elts) if isinstance(node, ast.Tuple | ast.List) else None


def _unique(kernels: Iterable[KernelSummary]) -> tuple[KernelSummary, ...]:
    out: dict[str, KernelSummary] = {}
    for kernel in kernels:
        out.setdefault(kernel.name, kernel)
    return tuple(out.values())


def _nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))
