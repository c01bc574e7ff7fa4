"""The `ast` front end's side of `core.bump_alloc`: which methods are bump allocators, and the mentions of their
receivers in a function body, in source order."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from ownership_check.core.bump_alloc import BumpEvent
from ownership_check.frontend.call_targets import receiver_path

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def bump_buffer(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...] | None:
    """The attribute path of the buffer a bump-allocator method hands out slices of, else None.  The shape: `start
    = self.<cursor>` (the only binding of `start`), later `self.<cursor> += size` (or `= start + size`, the only
    stores of the cursor), and a single `return self.<buffer>[start : start + size]` ending the body, the same
    `size` expression, whose names are parameters or locals bound once."""
    if isinstance(func, ast.AsyncFunctionDef) or func.decorator_list or not func.args.args:
        return None
    receiver = func.args.args[0].arg
    body = func.body
    last = body[-1] if body else None
    if not isinstance(last, ast.Return) or sum(isinstance(n, ast.Return) for n in ast.walk(func)) != 1:
        return None
    value = last.value
    if not (isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice) and value.slice.step is None):
        return None
    buffer = receiver_path(value.value, receiver)
    lower, upper = value.slice.lower, value.slice.upper
    stop = _stop_local(body, upper)
    if stop is not None:  # `stop = start + size`, `self.top = stop`, `return self.buf[start:stop]`
        upper = stop[1]
    if buffer is None or not isinstance(lower, ast.Name) or not (
        isinstance(upper, ast.BinOp) and isinstance(upper.op, ast.Add)
        and isinstance(upper.left, ast.Name) and upper.left.id == lower.id
    ):
        return None
    start, size = lower.id, ast.dump(upper.right)
    cursor: tuple[str, ...] | None = None
    taken = advanced = -1
    for index, stmt in enumerate(body):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and (
            stmt.targets[0].id == start
        ):
            cursor, taken = receiver_path(stmt.value, receiver), index
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add) and ast.dump(stmt.value) == size:
            found = receiver_path(stmt.target, receiver)
            advanced = index if found is not None and found == cursor else advanced
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and (
            (isinstance(stmt.value, ast.BinOp) and isinstance(stmt.value.op, ast.Add)
            and isinstance(stmt.value.left, ast.Name) and stmt.value.left.id == start
            and ast.dump(stmt.value.right) == size)
            or (stop is not None and isinstance(stmt.value, ast.Name) and stmt.value.id == stop[0])
        ):
            found = receiver_path(stmt.targets[0], receiver)
            advanced = index if found is not None and found == cursor else advanced
    if cursor is None or not 0 <= taken < advanced:
        return None
    stores: dict[str, int] = {}
    cursor_stores = 0
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            cursor_stores += receiver_path(node, receiver) == cursor
    params = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    names = {n.id for n in ast.walk(upper.right) if isinstance(n, ast.Name)}
    if stores.get(start) != 1 or cursor_stores != 1 or receiver in stores:
        return None
    if stop is not None and stores.get(stop[0]) != 1:
        return None
    if any(stores.get(name, 0) > (0 if name in params else 1) for name in names):
        return None
    return buffer


def bump_events(
    body: list[ast.stmt], bump_receiver: Callable[[ast.Call], str | None]
) -> list[BumpEvent]:
    """The bump calls of a function body (`bump_receiver`: the receiver's name of a call of a bump method, else
    None) and every other mention of their receivers, in source order, with the loops around each.  A receiver
    mentioned in a nested scope (a closure may reset it when called) has no bump calls."""
    calls: dict[int, str] = {}
    found: list[tuple[tuple[int, int], ast.AST, tuple[int, ...]]] = []
    nested: set[str] = set()
    for node, loops, inner in _nodes(body, (), False):
        if isinstance(node, ast.Call) and not inner and (receiver := bump_receiver(node)) is not None:
            assert isinstance(node.func, ast.Attribute)
            calls[id(node.func.value)] = receiver
            found.append(((node.lineno, node.col_offset), node, loops))
        elif isinstance(node, ast.Name):
            if inner:
                nested.add(node.id)
            else:
                found.append(((node.lineno, node.col_offset), node, loops))
    receivers = set(calls.values()) - nested
    events: list[BumpEvent] = []
    for _, node, loops in sorted(found, key=lambda item: item[0]):
        if isinstance(node, ast.Call):
            assert isinstance(node.func, ast.Attribute)
            receiver = calls[id(node.func.value)]
            if receiver in receivers:
                events.append(BumpEvent(receiver, id(node), loops))
        elif isinstance(node, ast.Name) and node.id in receivers and id(node) not in calls:
            events.append(BumpEvent(node.id, None, loops))
    return events


def _nodes(
    nodes: list[ast.stmt] | list[ast.AST], loops: tuple[int, ...], inner: bool
) -> Iterator[tuple[ast.AST, tuple[int, ...], bool]]:
    for node in nodes:
        yield node, loops, inner
        around = (*loops, id(node)) if isinstance(node, _LOOPS) else loops
        yield from _nodes(list(ast.iter_child_nodes(node)), around, inner or isinstance(node, _SCOPES))


def _stop_local(body: list[ast.stmt], upper: ast.expr | None) -> tuple[str, ast.expr] | None:
    """`stop` and its value `start + size` when the slice's upper bound is a local `stop` that one plain assignment
    of the body's top level binds to a sum, else None."""
    if not isinstance(upper, ast.Name):
        return None
    found = [
        s.value for s in body
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
        and s.targets[0].id == upper.id
    ]
    if len(found) != 1 or not (isinstance(found[0], ast.BinOp) and isinstance(found[0].op, ast.Add)):
        return None
    return upper.id, found[0]
