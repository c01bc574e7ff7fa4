"""What a statement does with the places it names, read off Python's `ast` for `core.keyed_items`.

The core keeps one object per literal key of a container it did not see built (`bufs["a"]` of a parameter) and
forgets those items after a statement that may change them; this module tells, per statement, which places are
only read (`bufs["a"]`, `bufs.get(k)`, `len(bufs)`, an attribute of them), which are assignment targets, and which
are handed on (a call argument, the receiver of another method, a store under a computed key, an alias taken).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence

from ownership_check.core.keyed_items import BOUND, HANDED, READ, READING_METHODS, Mention, param_key, reading_call
from ownership_check.frontend.ast_walk import walk
from ownership_check.frontend.computed_reads import dotted as _dotted

#: The front end's builtin lookup: the builtin a callee names, or None (shadowed or not a builtin).
Builtin = Callable[[ast.expr], "str | None"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _key(node: ast.expr, params: frozenset[str] = frozenset()) -> int | str | None:
    """A subscript's literal key, or `keyed_items.param_key` of a parameter in `params` (never rebound)."""
    if isinstance(node, ast.Name) and node.id in params:
        return param_key(node.id)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | str) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        return -value if type(value) is int else None
    return None


def read_keys(nodes: Iterable[ast.AST], params: frozenset[str] = frozenset()) -> dict[str, frozenset[int | str]]:
    """The literal keys a body reads or stores under, by container dotted text (`{"bufs": {"a", "b"}}`): `nodes`
    are the body's own nodes (nested functions and classes not entered); a parameter in `params` is a key too."""
    found: dict[str, set[int | str]] = {}
    for node in nodes:
        if type(node) is ast.Subscript and (key := _key(node.slice, params)) is not None:
            text = _dotted(node.value)
            if text is not None:
                found.setdefault(text, set()).add(key)
    return {text: frozenset(keys) for text, keys in found.items()}


def captured_names(nodes: Iterable[ast.AST]) -> frozenset[str]:
    """Names a nested function or lambda of a body refers to (calling it later may change what they hold), and
    names it declares `global` or `nonlocal`: `nodes` are the body's own nodes."""
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
        elif isinstance(node, _FUNCTIONS):
            inner: Sequence[ast.AST] = [node.body] if isinstance(node, ast.Lambda) else node.body
            own = _own_locals(node)
            names.update(sub.id for part in inner for sub in walk(part) if type(sub) is ast.Name and sub.id not in own)
    return frozenset(names)


def _own_locals(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    """The names local to the nested function `node` itself: its parameters and what its own body binds (not
    declared `nonlocal`/`global`).  Python makes such a name local throughout the function, so a mention of it
    there (`held = 3` in a nested function beside the caller's `held`) is never the caller's name.  A
    comprehension's targets are its own scope's, not the function's: not counted."""
    args = node.args
    found = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a is not None}
    if isinstance(node, ast.Lambda):
        return frozenset(found)
    declared: set[str] = set()
    in_comprehension: set[int] = set()
    todo: list[ast.AST] = list(node.body)
    while todo:
        sub = todo.pop()
        if isinstance(sub, ast.comprehension):
            in_comprehension.update(id(n) for n in ast.walk(sub.target))
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store | ast.Del) and id(sub) not in in_comprehension:
            found.add(sub.id)
        elif isinstance(sub, ast.Global | ast.Nonlocal):
            declared.update(sub.names)
        elif isinstance(sub, ast.ExceptHandler) and sub.name is not None:
            found.add(sub.name)
        elif isinstance(sub, ast.Import | ast.ImportFrom):
            found.update((a.asname or a.name).split(".")[0] for a in sub.names)
        if isinstance(sub, (*_FUNCTIONS, ast.ClassDef)):
            if not isinstance(sub, ast.Lambda):
                found.add(sub.name)
            continue  # a scope nested in it: its own names are not this function's
        todo.extend(reversed(list(ast.iter_child_nodes(sub))))
    return frozenset(found - declared)


class _Mentions:
    def __init__(self, builtin: Builtin, reading: Callable[[ast.Call], frozenset[str] | None] | None = None) -> None:
        self.builtin = builtin
        self.reading = reading  # the receiver's attributes a method of the module's classes may change, if known
        self.found: list[Mention] = []

    def uses(self, node: ast.AST | None, how: str) -> None:
        """`node` evaluated where its value is used `how` (read, or handed on)."""
        if node is None:
            return
        text = _dotted(node) if isinstance(node, ast.expr) else None
        if text is not None:
            self.found.append(Mention(text, how))
        elif isinstance(node, ast.Attribute):
            self.uses(node.value, READ)
        elif isinstance(node, ast.Subscript):
            self.uses(node.value, READ)
            self.uses(node.slice, READ)
        elif isinstance(node, ast.Call):
            self.call(node)
        elif isinstance(node, ast.IfExp):
            self.uses(node.test, READ)
            self.uses(node.body, how)
            self.uses(node.orelse, how)
        elif isinstance(node, ast.BoolOp | ast.Tuple | ast.List | ast.Set):
            for child in node.values if isinstance(node, ast.BoolOp) else node.elts:
                self.uses(child, how)
        elif isinstance(node, ast.Starred):
            self.uses(node.value, how)
        elif isinstance(node, ast.Dict):
            for entry in (*node.keys, *node.values):
                self.uses(entry, how)
        elif isinstance(node, ast.NamedExpr):
            self.target(node.target)
            self.uses(node.value, HANDED)
        elif isinstance(node, ast.Lambda | ast.Await | ast.Yield | ast.YieldFrom):
            self.uses(node.body if isinstance(node, ast.Lambda) else node.value, HANDED)
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            for generator in node.generators:
                self.target(generator.target)
                self.uses(generator.iter, READ)
                for test in generator.ifs:
                    self.uses(test, READ)
            for part in (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,):
                self.uses(part, HANDED)
        else:  # comparisons, arithmetic, f-strings, slices: their operands are only read
            for operand in ast.iter_child_nodes(node):
                self.uses(operand, READ)

    def target(self, node: ast.AST | None, deleting: bool = False) -> None:
        """An assignment (or `del`) target: a name or attribute is rebound (the core forgets its paths itself); a
        store under a literal key only reads its container (the item is rebound), any other store or `del`
        of an item hands the container on."""
        if node is None:
            return
        text = _dotted(node) if isinstance(node, ast.expr) else None
        if text is not None:
            self.found.append(Mention(text, BOUND))
        elif isinstance(node, ast.Subscript):
            self.uses(node.value, READ if _key(node.slice) is not None and not deleting else HANDED)
            self.uses(node.slice, READ)
        elif isinstance(node, ast.Tuple | ast.List):
            for item in node.elts:
                self.target(item, deleting)
        elif isinstance(node, ast.Starred):
            self.target(node.value, deleting)
        elif isinstance(node, ast.Attribute):
            self.uses(node.value, READ)

    def call(self, node: ast.Call) -> None:
        func = node.func
        how = READ if reading_call(self.builtin(func) if isinstance(func, ast.Name) else _dotted(func)) else HANDED
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant):
            how = READ  # `"{}".format(x)`, `", ".join(names)`: a method of a literal reads its arguments
        if isinstance(func, ast.Attribute):
            changed = self.reading(node) if self.reading is not None else None
            self.uses(func.value, READ if func.attr in READING_METHODS or changed is not None else HANDED)
            receiver = _dotted(func.value) if changed else None
            if receiver is not None:  # `self._output_for(name)` storing into `self.clean[name]` only
                self.found.extend(Mention(f"{receiver}.{attr}", HANDED) for attr in sorted(changed or ()))
        else:
            self.uses(func, READ)
        for arg in node.args:
            self.uses(arg, how)
        for keyword in node.keywords:
            self.uses(keyword.value, how)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self.target(target)
            self.uses(node.value, HANDED)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            self.target(node.target)
            self.uses(node.value, HANDED)
        elif isinstance(node, ast.Return):
            self.uses(node.value, HANDED)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                self.target(target, deleting=True)
        elif isinstance(node, ast.Expr):
            self.uses(node.value, READ)
        elif isinstance(node, ast.If | ast.While):
            self.uses(node.test, READ)
        elif isinstance(node, ast.For | ast.AsyncFor):
            self.target(node.target)
            self.uses(node.iter, READ)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                self.uses(item.context_expr, HANDED)
                self.target(item.optional_vars)
        elif isinstance(node, ast.Match):
            self.uses(node.subject, READ)
        elif isinstance(node, ast.Raise):
            self.uses(node.exc, READ)
            self.uses(node.cause, READ)
        elif isinstance(node, ast.Assert):
            self.uses(node.test, READ)
            self.uses(node.msg, READ)


def mentions(
    node: ast.stmt, builtin: Builtin, reading: Callable[[ast.Call], frozenset[str] | None] | None = None
) -> list[Mention]:
    """The places `node` names and how (`keyed_items.Mention`); for a compound statement, those of its header.
    `reading`: the receiver's attributes a method call may change (None: anything)."""
    walker = _Mentions(builtin, reading)
    walker.statement(node)
    return walker.found


def compound(node: ast.stmt) -> bool:
    """Whether `node` has a body of its own (its header's changes come before the body runs)."""
    return isinstance(
        node, ast.If | ast.While | ast.For | ast.AsyncFor | ast.With | ast.AsyncWith | ast.Match | ast.Try
    )
