"""Parameter defaults of nested functions: the object a default was when the `def` ran.

Python evaluates `def report(tag, field=density)` once, when the `def` statement runs, and keeps that object on the
function: a later `report("step")` passes it, whatever `density` is rebound to by then.  When the object was moved
meanwhile (`parts = density.partition(...)`), the read of `field` inside `report` is a use after move, which the
runtime raises there.  The checker follows it with the machinery it has for what a nested function does to the
caller's values it captures (`checker.nonlocal_effects`, applied by `calls.lower_call`):

    def report(tag, field=density)    the front end binds a slot of `report` to the default (`default_slot`,
                                      `report$dfield := density`, only for a default that is a place) and reads
                                      what a call does to each such parameter as if it were a captured caller's
                                      value (`read_defaults`: its first read, its borrows, its moves)
    report("step")                    a call that omits `field` does that to the slot (`with_defaults`): the read
                                      is reported at its span inside `report`, as a captured name's is; a call
                                      that passes `field` (by position or keyword) does nothing to the slot, and
                                      a call with `*args` / `**kwargs` is not followed (the binding is not known)

Both front ends give the same inputs (parameter names, the defaults that are places, the lowered nested function),
so they lower the same calls to the same IR.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from ownership_check.core import ir
from ownership_check.core.calls import NonlocalEffects, Operand
from ownership_check.core.checker import nonlocal_effects

#: How a default's slot is spelled: the nested function's name, this marker, the parameter.  A `$` never appears in
#: a Python name, so a slot is no user's place.
_SLOT_MARK: Final[str] = ir.DEFAULT_SLOT_MARK


def default_slot(function: str, param: str) -> ir.Place:
    """The place holding the object the default of `param` of the nested function `function` was when its `def`
    ran; diagnostics spell it as the parameter (what the nested function's read of it names)."""
    return ir.Place(f"{function}{_SLOT_MARK}{param}", (), param)


@dataclass(frozen=True)
class ParameterDefaults:
    """What a call of a nested function that omits a defaulted parameter does to its default's object: `positional`
    are the parameters a positional argument binds, in order; `slots` each parameter whose default is a place, with
    its slot; `effects` the nested function's effects on those parameters, named by the parameter (as
    `checker.nonlocal_effects` reads them for captured names)."""

    positional: tuple[str, ...]
    slots: tuple[tuple[str, ir.Place], ...]
    effects: NonlocalEffects


def read_defaults(
    function: ir.Function,
    slots: Mapping[str, ir.Place],
    positional: Sequence[str],
    params: Iterable[str],
) -> ParameterDefaults | None:
    """The defaults of the lowered nested `function` whose parameters have slots (`default_slot`), or None when a
    call omitting them does nothing the caller must apply (no read, borrow or move of them)."""
    if not slots:
        return None
    # the defaulted parameters are read as captured names: each starts out as the caller's value (its slot's)
    effects = nonlocal_effects(function, list(slots), [p for p in params if p not in slots])
    if not (effects.reads or effects.moves):
        return None
    return ParameterDefaults(tuple(positional), tuple(slots.items()), effects)


def _omitted(defaults: ParameterDefaults, args: Sequence[Operand[Any]]) -> dict[str, ir.Place] | None:
    """The slots of the defaulted parameters the call's arguments leave unbound, by parameter; None when a `*args`
    or `**kwargs` argument makes the binding unknown."""
    if any(arg.star for arg in args):
        return None
    count = sum(1 for arg in args if arg.keyword is None)
    given = {*defaults.positional[:count], *(arg.keyword for arg in args if arg.keyword is not None)}
    return {param: slot for param, slot in defaults.slots if param not in given}


def _renamed(place: ir.Place, slots: Mapping[str, ir.Place]) -> ir.Place | None:
    slot = slots.get(place.root)
    return None if slot is None else ir.Place(slot.root, place.attrs, place.text)


def with_defaults(
    effects: NonlocalEffects | None, defaults: ParameterDefaults | None, args: Sequence[Operand[Any]]
) -> NonlocalEffects | None:
    """What a call of a nested function with arguments `args` does to the caller's values: its captured names'
    `effects`, then, for each defaulted parameter the call omits, what it does to that parameter's value done to
    the default's slot (a read, the borrows of a call of its own, a move).  A parameter the call passes is the call
    summary's, as any argument is."""
    if defaults is None:
        return effects
    slots = _omitted(defaults, args)
    if not slots:
        return effects
    reads: list[ir.Use | ir.Borrow | ir.CheckBrand | tuple[tuple[ir.Borrow, ...], ...]] = []
    for read in defaults.effects.reads:
        if isinstance(read, tuple):
            ways = tuple(
                tuple(
                    replace(b, place=place) if (place := _renamed(b.place, slots)) is not None else b for b in way
                )
                for way in read
            )
            if any(b.place.root not in defaults.effects.params for way in ways for b in way):
                reads.append(ways)
            continue
        place = _renamed(read.place, slots)
        if place is not None:
            reads.append(replace(read, place=place))
    moves = [replace(m, place=place) for m in defaults.effects.moves if (place := _renamed(m.place, slots))]
    if not reads and not moves:
        return effects
    if effects is None:
        return NonlocalEffects(tuple(reads), moves=tuple(moves), params=defaults.effects.params)
    return replace(effects, reads=(*effects.reads, *reads), moves=(*effects.moves, *moves))
