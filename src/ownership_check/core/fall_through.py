"""A chain of tests without an `else` whose every arm binds a name that the code after it reads, in a loop the
name is unbound at the start of: where none of its arms runs, a later iteration reads the object the previous one
left there, moved.

    for p in self.params:
        match p.kind:
            case "buffer":
                out, _ = copy_tile(p.shadow.partition((T,)), p.value).sync_on(s)
            case "weight" | "bias" | "norm":
                out, p.value, _ = ema(p.shadow.partition((T,)), p.value, d).sync_on(s)
        p.shadow = out.unpartition()

The runtime raises at `out.unpartition()` when a kind no case matches comes after one that does (the first
iteration would raise `UnboundLocalError` there instead), and the checker reports E0382 there.  Rust rejects the
same loop outright (E0381, possibly-uninitialized).  When one arm always runs (mypy proves it from a `Literal`
type; the checker reads no types), the report is a false alarm that one line fixes: `case _: raise ...` (`else:
raise ...`) says so, and that arm ends its path.  `open_chains` finds these chains so that the report says which
one and how (`checker.check_function` adds the note); both front ends lower both statements to this shape."""

from __future__ import annotations

from collections.abc import Iterator

from ownership_check.core import ir
from ownership_check.diagnostics import Label, Span

_ENDS_PATH = (ir.Return, ir.Raise, ir.Break, ir.Continue)


def open_chains(body: ir.Block) -> dict[str, list[Span]]:
    """For each name, the chains of `body` the module's docstring describes that bind it (their spans)."""
    found: dict[str, list[Span]] = {}
    _scan(body, set(), None, found)
    return found


def chain_label(name: str, chains: dict[str, list[Span]], moved_in_loop: bool) -> tuple[Label, str] | None:
    """For an E0382 of `name` whose move is labelled as the previous iteration's (`moved_in_loop`), when an open
    chain binds `name` (`open_chains`): a label on the chain and the note saying how to declare it exhaustive."""
    spans = chains.get(name)
    if not spans or not moved_in_loop:
        return None
    label = Label(spans[0], f"`{name}` is bound in every arm of this test, which has no `else`")
    note = (
        f"an iteration that runs none of its arms reads the `{name}` the previous one moved; if one always runs, "
        "end the test with `else: raise ...` (`case _: raise ...` in a `match`)"
    )
    return label, note


def _plain(op: ir.Op) -> bool:
    """A `Branch` that is a choice of the program's (not one statement's exception step, not a loop's test)."""
    return isinstance(op, ir.Branch) and not op.atomic and not op.tests


def _scan(block: ir.Block, seen: set[str], entry: frozenset[str] | None, found: dict[str, list[Span]]) -> None:
    """Find the chains of `block`.  `seen`: the names bound or read so far, in the order of the source,
    updated in place; `entry`: those seen where the innermost enclosing loop starts (None outside loops)."""
    for index, op in enumerate(block):
        if isinstance(op, ir.Loop):
            _scan(op.head, seen, entry, found)
            _scan(op.body, seen, frozenset(seen), found)
            _scan(op.orelse, seen, entry, found)
            continue
        if entry is not None and _plain(op):
            assert isinstance(op, ir.Branch)
            candidates = {name for name in _bound_in(op) if name not in entry}
            if candidates:
                later = {name for after in ir.all_ops(block[index + 1:]) for name in _names_of(after)}
                for name in sorted(candidates & later):
                    if _missing((op,), name):
                        found.setdefault(name, []).append(op.span)
        for child in ir.child_blocks(op):
            _scan(child, seen, entry, found)
        seen.update(_names_of(op))


def _missing(block: ir.Block, name: str) -> int | None:
    """How many empty arms of its tests `block` may end through without binding `name`, when every other way
    through it binds the name or ends the path (0: every way does); None when some way reaches its end without
    binding it otherwise."""
    for index, op in enumerate(block):
        if isinstance(op, ir.Bind) and any(t.root == name and not t.attrs for t in op.targets):
            return 0
        if isinstance(op, _ENDS_PATH):
            return 0
        if isinstance(op, ir.Unsafe) or (isinstance(op, ir.Branch) and op.atomic and len(op.arms) == 1):
            inner = _missing(op.body if isinstance(op, ir.Unsafe) else op.arms[0], name)
            if inner is not None:
                return inner
            continue
        if _plain(op):
            assert isinstance(op, ir.Branch)
            if _missing(block[index + 1:], name) == 0:
                return 0
            found = 0
            for arm in op.arms:
                inner = _missing(arm, name) if arm else 1
                if inner is None:
                    return None
                found += inner
            return found if found < len(op.arms) else None
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
