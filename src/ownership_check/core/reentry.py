"""A nested function that may run again, and finds its own `nonlocal` state moved when it does.

A function nested in another keeps its `nonlocal` names between calls: they are cells of the enclosing call.  When
such a function reads one of those names before it binds it, and on some path returns with the name still bound
to an object it moved (a tensor moved into a tile launch whose returned value was discarded: `res, _, w, _ =
affine_relu(out, x, w, b).sync_on(stream)` leaves `b` moved), its next call reads a moved value: the runtime's
`UseAfterMoveError` at that read.  Rust rejects the same closure as `FnMut` (it moves out of a captured variable).

A call of the nested function that the enclosing function makes applies its effects there (`calls.lower_call`),
so a second call of it there is checked as any other.  This module covers a function that escapes instead
(returned, stored, passed on, decorated): who calls it, and how often, is out of sight, so it is checked as if
an earlier call had run before this one.  Its body starts with a `Branch` whose second arm stands for that
earlier call: a place spelled as the name, bound to a new object, moved where the body moves the name and read
where the body first reads it, which the checker reports as E0382 at that read.  The first arm is the first call;
the stand-in place is dead after the `Branch`, so the body's own analysis is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ownership_check.core import ir
from ownership_check.core.calls import NonlocalEffects
from ownership_check.diagnostics import Span


def _first_reads(effects: NonlocalEffects) -> Iterator[tuple[str, Span]]:
    """Where the nested function first reads each caller's value, in its node order."""
    for read in effects.reads:
        if isinstance(read, ir.Use):
            yield read.place.root, read.span
        elif isinstance(read, tuple):
            for way in read:
                for borrow in way:
                    yield borrow.place.root, borrow.span


def earlier_call(
    effects: NonlocalEffects, declared: Iterable[str], function: str, temp: Callable[[str], ir.Place]
) -> ir.Branch | None:
    """The `Branch` to put first in the body of the nested `function` that escapes (see the module's docstring),
    given its own call effects (`checker.nonlocal_effects` over `declared`, the names it declares `nonlocal`) and
    the front end's `temp` for new places: one arm per move that may leave a declared name moved where the body
    first reads that name; None when there is none."""
    names = set(declared)
    first: dict[str, Span] = {}
    for name, at in _first_reads(effects):
        if name in names:
            first.setdefault(name, at)
    arms: list[ir.Block] = [()]
    for move in effects.moves:
        name = move.place.root
        read = first.get(name)
        if read is None or move.place.attrs:
            continue
        stand_in = temp(name)
        note = f"`{function}` may be called again and reads `{name}` before binding it"
        arms.append((
            ir.Bind((stand_in,), (ir.Fresh(),), read),
            ir.Move(stand_in, move.span, f"{note}; {move.help}" if move.help else note),
            ir.Use(stand_in, read),
        ))
    if len(arms) == 1:
        return None
    branch_at = arms[1][0]
    assert isinstance(branch_at, ir.Bind)
    return ir.Branch(tuple(arms), branch_at.span)
