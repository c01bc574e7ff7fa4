"""Callables handled as values: what calling one runs, said in the terms the core already has.

Host code often names a launch once and calls it later through a value: `run = functools.partial(k.launch,
prepared, stream)`, `apply = lambda lhs, rhs, out: k.launch(prepared, stream, lhs, rhs, out)`, `step =
make_step(stream)` (a factory returning a nested function), `list(map(lambda src: scale(z, src), [x, y]))`.  The
runtime applies the launch wherever the call is; the checker must too, or `run(c, b, c)` is silent.  Each front
end recognises these forms syntactically, by the same rules (see docs/checker.md, "Calls of functions and methods
of the same module"), and hands the core what the call runs:

    run = partial(target, a, k=b)     the bound arguments are kept in slots of `run` (`bind_partial`), so the
                                      objects they were when `partial` ran are the ones a later call passes
    run(c, d)                         target(<slot 0>, c, d, k=<slot k>): `partial_arguments` merges them
    list(map(f, [x, y]))              f(x), then f(y): `mapped_items`

A lambda bound to a name and a function a factory returns are plain functions to the call-summary machinery
(`call_effects`); the front ends only resolve the name to their definition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

from ownership_check.core import ir
from ownership_check.core.calls import Lowering, Operand
from ownership_check.diagnostics import Span

E = TypeVar("E")

#: The qualified names of `functools.partial` (the one callable factory the checker follows).
PARTIAL_FUNCTIONS: Final[frozenset[str]] = frozenset({"functools.partial"})

#: Builtins that run `map`'s callable on every item before they return (a bare `map(...)` is lazy: nothing runs
#: until something iterates it, so it is followed only inside one of these).
MAP_CONSUMERS: Final[frozenset[str]] = frozenset({"list", "tuple", "set", "sorted"})

#: How a partial's slot is spelled: the name it is bound to, this marker, the slot's index (or keyword).  A `$`
#: never appears in a Python name, so a slot is no user's place.
_SLOT_MARK: Final[str] = "$p"


def partial_slot(name: str, key: int | str, display: str | None) -> ir.Place:
    """The place holding the bound argument `key` (a position, or a keyword) of the partial bound to `name`;
    diagnostics spell it as the bound argument was written (`display`)."""
    return ir.Place(f"{name}{_SLOT_MARK}{key}", (), display)


def bind_partial(slots: Sequence[ir.Place], values: Sequence[ir.Value], span: Span, sink: Lowering[E]) -> None:
    """`run = partial(target, a, b)`: the slots refer to what the bound arguments were then (each already
    evaluated, in order, by the front end), so a later call passes those objects whatever `a` is rebound to."""
    if slots:
        sink.emit(ir.Bind(tuple(slots), tuple(values), span))


def partial_arguments(bound: Sequence[Operand[E]], given: Sequence[Operand[E]]) -> tuple[Operand[E], ...]:
    """The arguments a call of a partial passes to its target, as `functools.partial` builds them: the bound
    positional arguments, then the call's positional ones, then the bound keywords the call does not override,
    then the call's keywords."""
    given_keywords = {a.keyword for a in given if a.keyword is not None}
    return (
        *(a for a in bound if a.keyword is None),
        *(a for a in given if a.keyword is None),
        *(a for a in bound if a.keyword is not None and a.keyword not in given_keywords),
        *(a for a in given if a.keyword is not None),
    )


def mapped_items(items: Sequence[Operand[E]] | None) -> tuple[Operand[E], ...] | None:
    """The operands `map(f, items)` calls `f` with, one call each in order: the items of a display (or of a
    container whose items are known), none followed when an item is starred or the items are unknown."""
    if items is None or any(item.star for item in items):
        return None
    return tuple(items)
