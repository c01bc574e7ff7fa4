"""A chain of tests without an `else` whose every arm binds a name that the code after it reads, in a loop the
name is unbound at the start of: the chain is taken as exhaustive (its missing `else` never runs).

    for p in self.params:
        match p.kind:
            case "buffer":
                out, _ = copy_tile(p.shadow.partition((T,)), p.value).sync_on(s)
            case "weight" | "bias" | "norm":
                out, p.value, _ = ema(p.shadow.partition((T,)), p.value, d).sync_on(s)
        p.shadow = out.unpartition()

Were no case to match, the first iteration would raise `UnboundLocalError` at `out.unpartition()`: the author
knows one case always matches (mypy can prove it from a `Literal` type; the checker does not read types).  Taken
literally, a later iteration's fall-through would read the `out` the previous iteration moved: a false E0382 on
every such loop.  Rust rejects the same code for the first iteration (E0381, possibly-uninitialized); Python
raises there, so the missing arm becomes a `raise` of its own (`ir.Raise`), what Python does on that first
iteration.  An `if`/`elif` chain without `else` is the same `Branch` shape as a `match` without a wildcard case.

Both front ends lower the two statements to the same IR, so the rule lives here, once, applied to every function
the core builds a graph of (`cfg.build`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ownership_check.core import ir

#: An arm of a `Branch`: the branch's identity and the arm's index.
_Arm = tuple[int, int]

_ENDS_PATH = (ir.Return, ir.Raise, ir.Break, ir.Continue)


def assume_exhaustive(body: ir.Block) -> ir.Block:
    """`body` with the missing arm of each chain the module's docstring describes replaced by a `raise`."""
    dead: set[_Arm] = set()
    _scan(body, set(), None, dead)
    return _rewrite(body, dead) if dead else body


def _plain(op: ir.Op) -> bool:
    """A `Branch` that is a choice of the program's (not one statement's exception step, not a loop's test)."""
    return isinstance(op, ir.Branch) and not op.atomic and not op.tests


def _scan(block: ir.Block, seen: set[str], entry: frozenset[str] | None, dead: set[_Arm]) -> None:
    """Find the chains to close in `block`.  `seen`: the names bound or read so far, in the order of the source,
    updated in place; `entry`: those seen where the innermost enclosing loop starts (None outside loops)."""
    for index, op in enumerate(block):
        if isinstance(op, ir.Loop):
            _scan(op.head, seen, entry, dead)
            _scan(op.body, seen, frozenset(seen), dead)
            _scan(op.orelse, seen, entry, dead)
            continue
        if entry is not None and _plain(op):
            assert isinstance(op, ir.Branch)
            candidates = {name for name in _bound_in(op) if name not in entry}
            if candidates:
                later = {name for after in ir.all_ops(block[index + 1:]) for name in _names_of(after)}
                for name in sorted(candidates & later):
                    dead.update(_missing((op,), name) or ())
        for child in _blocks(op):
            _scan(child, seen, entry, dead)
        seen.update(_names_of(op))


def _missing(block: ir.Block, name: str) -> list[_Arm] | None:
    """The empty arms through which `block` may end without binding `name`, when every other way through it binds
    the name or ends the path; None when some way reaches its end without binding it otherwise."""
    for index, op in enumerate(block):
        if isinstance(op, ir.Bind) and any(t.root == name and not t.attrs for t in op.targets):
            return []
        if isinstance(op, _ENDS_PATH):
            return []
        if isinstance(op, ir.Unsafe) or (isinstance(op, ir.Branch) and op.atomic and len(op.arms) == 1):
            inner = _missing(op.body if isinstance(op, ir.Unsafe) else op.arms[0], name)
            if inner is not None:
                return inner
            continue
        if _plain(op):
            assert isinstance(op, ir.Branch)
            if _missing(block[index + 1:], name) == []:
                return []
            found: list[_Arm] = []
            for number, arm in enumerate(op.arms):
                if not arm:
                    found.append((id(op), number))
                    continue
                inner = _missing(arm, name)
                if inner is None:
                    return None
                found.extend(inner)
            return found if len(found) < len(op.arms) else None
    return None


def _bound_in(branch: ir.Branch) -> set[str]:
    """The plain names some arm of `branch` binds."""
    return {
        target.root
        for arm in branch.arms
        for op in ir.all_ops(arm)
        if isinstance(op, ir.Bind)
        for target in op.targets
        if not target.attrs
    }


def _names_of(op: ir.Op) -> Iterator[str]:
    """The names one operation (not those inside it) reads or binds."""
    if isinstance(op, ir.Use | ir.Move | ir.Borrow | ir.CheckBrand | ir.Del):
        yield op.place.root
    elif isinstance(op, ir.View):
        yield op.source.root
        yield op.target.root
    elif isinstance(op, ir.Bind):
        for target in op.targets:
            yield target.root
        for value in op.values:
            if isinstance(value, ir.FromPlace):
                yield value.source.root


def _blocks(op: ir.Op) -> list[ir.Block]:
    """The blocks a compound operation is made of."""
    if isinstance(op, ir.Branch):
        return list(op.arms)
    if isinstance(op, ir.Loop):
        return [op.head, op.body, op.orelse]
    if isinstance(op, ir.Try):
        return [op.body, *op.handlers, op.orelse, op.finalbody]
    if isinstance(op, ir.Unsafe):
        return [op.body]
    return []


def _rewrite(block: ir.Block, dead: set[_Arm]) -> ir.Block:
    """`block` with each arm of `dead` replaced by a `raise` at its branch."""
    return tuple(_rewrite_op(op, dead) for op in block)


def _rewrite_op(op: ir.Op, dead: set[_Arm]) -> ir.Op:
    if isinstance(op, ir.Branch):
        arms = tuple(
            (ir.Raise(op.span),) if (id(op), number) in dead else _rewrite(arm, dead)
            for number, arm in enumerate(op.arms)
        )
        return replace(op, arms=arms)
    if isinstance(op, ir.Loop):
        return replace(op, head=_rewrite(op.head, dead), body=_rewrite(op.body, dead),
                       orelse=_rewrite(op.orelse, dead))
    if isinstance(op, ir.Try):
        return replace(op, body=_rewrite(op.body, dead), handlers=tuple(_rewrite(h, dead) for h in op.handlers),
                       orelse=_rewrite(op.orelse, dead), finalbody=_rewrite(op.finalbody, dead))
    if isinstance(op, ir.Unsafe):
        return replace(op, body=_rewrite(op.body, dead))
    return op
