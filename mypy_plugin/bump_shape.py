"""The mypy plugin's side of `core.bump_alloc` (the CLI's `frontend.bump_shape`, on mypy's tree): which methods
are bump allocators, and the mentions of their receivers in a function body, in source order."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    DictionaryComprehension,
    Expression,
    ForStmt,
    FuncDef,
    GeneratorExpr,
    IndexExpr,
    IntExpr,
    ListComprehension,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OpExpr,
    ReturnStmt,
    SetComprehension,
    SliceExpr,
    Statement,
    WhileStmt,
)

from mypy_plugin import tree
from mypy_plugin.call_targets import bound_targets, receiver_path
from mypy_plugin.memo_shape import stored_names
from ownership_check.core.bump_alloc import BumpEvent

_LOOPS = (ForStmt, WhileStmt, ListComprehension, SetComprehension, DictionaryComprehension, GeneratorExpr)


def _text(expr: Node) -> str | None:
    """A size expression as comparable text (names, integers, arithmetic, attributes, calls), else None."""
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, IntExpr):
        return str(expr.value)
    if isinstance(expr, MemberExpr):
        inner = _text(expr.expr)
        return None if inner is None else f"{inner}.{expr.name}"
    if isinstance(expr, OpExpr):
        left, right = _text(expr.left), _text(expr.right)
        return None if left is None or right is None else f"({left} {expr.op} {right})"
    if isinstance(expr, CallExpr):
        parts = [_text(expr.callee), *(_text(a) for a in expr.args)]
        return None if any(p is None for p in parts) else f"{parts[0]}({', '.join(p or '' for p in parts[1:])})"
    return None


def bump_buffer(func: FuncDef | None) -> tuple[str, ...] | None:
    """The attribute path of the buffer a bump-allocator method hands out slices of, else None (the CLI's
    `bump_buffer`)."""
    if func is None or func.is_coroutine or func.is_generator or not func.arguments:
        return None
    receiver = func.arguments[0].variable.name
    body = func.body.body
    last = body[-1] if body else None
    if not isinstance(last, ReturnStmt) or sum(isinstance(n, ReturnStmt) for n in tree.walk(func.body)) != 1:
        return None
    value = last.expr
    if not (isinstance(value, IndexExpr) and isinstance(value.index, SliceExpr) and value.index.stride is None):
        return None
    buffer = receiver_path(value.base, receiver)
    lower, upper = value.index.begin_index, value.index.end_index
    stop = _stop_local(body, upper)
    if stop is not None:  # `stop = start + size`, `self.top = stop`, `return self.buf[start:stop]` (the CLI's)
        upper = stop[1]
    if buffer is None or not isinstance(lower, NameExpr) or not (
        isinstance(upper, OpExpr) and upper.op == "+" and isinstance(upper.left, NameExpr)
        and upper.left.name == lower.name
    ):
        return None
    start, size = lower.name, _text(upper.right)
    if size is None:
        return None
    cursor: tuple[str, ...] | None = None
    taken = advanced = -1
    for index, stmt in enumerate(body):
        if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], NameExpr) and (
            stmt.lvalues[0].name == start
        ):
            cursor, taken = receiver_path(stmt.rvalue, receiver), index
        elif isinstance(stmt, OperatorAssignmentStmt) and stmt.op == "+" and _text(stmt.rvalue) == size:
            found = receiver_path(stmt.lvalue, receiver)
            advanced = index if found is not None and found == cursor else advanced
        elif isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and (
            (isinstance(stmt.rvalue, OpExpr) and stmt.rvalue.op == "+" and isinstance(stmt.rvalue.left, NameExpr)
            and stmt.rvalue.left.name == start and _text(stmt.rvalue.right) == size)
            or (stop is not None and isinstance(stmt.rvalue, NameExpr) and stmt.rvalue.name == stop[0])
        ):
            found = receiver_path(stmt.lvalues[0], receiver)
            advanced = index if found is not None and found == cursor else advanced
    if cursor is None or not 0 <= taken < advanced:
        return None
    stores: dict[str, int] = {}
    for name in stored_names(func):
        stores[name] = stores.get(name, 0) + 1
    cursor_stores = 0
    for node in tree.walk(func.body, skip_scopes=False):
        for target in bound_targets(node):
            if isinstance(target, MemberExpr):
                cursor_stores += receiver_path(target, receiver) == cursor
    params = {arg.variable.name for arg in func.arguments}
    names = {n.name for n in tree.walk(upper.right) if isinstance(n, NameExpr)}
    if stores.get(start) != 1 or cursor_stores != 1 or receiver in stores:
        return None
    if stop is not None and stores.get(stop[0]) != 1:
        return None
    if any(stores.get(name, 0) > (0 if name in params else 1) for name in names):
        return None
    return buffer


def _stop_local(body: list[Statement], upper: Expression | None) -> tuple[str, Expression] | None:
    """`stop` and its value `start + size` when the slice's upper bound is a local `stop` that one plain assignment
    of the body's top level binds to a sum (the CLI's `_stop_local`)."""
    if not isinstance(upper, NameExpr):
        return None
    found = [
        s.rvalue for s in body
        if isinstance(s, AssignmentStmt) and len(s.lvalues) == 1 and isinstance(s.lvalues[0], NameExpr)
        and s.lvalues[0].name == upper.name
    ]
    if len(found) != 1 or not (isinstance(found[0], OpExpr) and found[0].op == "+"):
        return None
    return upper.name, found[0]


def bump_events(body: list[Statement], bump_receiver: Callable[[CallExpr], str | None]) -> list[BumpEvent]:
    """The bump calls of a function body and every other mention of their receivers, in source order, with the
    loops around each (the CLI's `bump_events`)."""
    calls: dict[int, str] = {}
    found: list[tuple[tuple[int, int], Node, tuple[int, ...]]] = []
    nested: set[str] = set()
    for node, loops, inner in _nodes(list(body), (), False):
        if isinstance(node, CallExpr) and not inner and (receiver := bump_receiver(node)) is not None:
            assert isinstance(node.callee, MemberExpr)
            calls[id(node.callee.expr)] = receiver
            found.append(((node.line, node.column), node, loops))
        elif isinstance(node, NameExpr):
            if inner:
                nested.add(node.name)
            else:
                found.append(((node.line, node.column), node, loops))
    receivers = set(calls.values()) - nested
    events: list[BumpEvent] = []
    for _, node, loops in sorted(found, key=lambda item: item[0]):
        if isinstance(node, CallExpr):
            assert isinstance(node.callee, MemberExpr)
            receiver = calls[id(node.callee.expr)]
            if receiver in receivers:
                events.append(BumpEvent(receiver, id(node), loops))
        elif isinstance(node, NameExpr) and node.name in receivers and id(node) not in calls:
            events.append(BumpEvent(node.name, None, loops))
    return events


def _nodes(nodes: list[Node], loops: tuple[int, ...], inner: bool) -> Iterator[tuple[Node, tuple[int, ...], bool]]:
    for node in nodes:
        yield node, loops, inner
        around = (*loops, id(node)) if isinstance(node, _LOOPS) else loops
        yield from _nodes(list(tree.children(node)), around, inner or isinstance(node, tree.SCOPES))

