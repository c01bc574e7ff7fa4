"""What every call of a module's plain function passes for a parameter: facts its own check may start with.

A function's own check treats each parameter as whatever a caller may pass (`@param`), so a generator that
launches its parameter in a loop, `for z in outs: yield add(z, x, y)`, moves `x` in the first iteration and reads
it moved in the next (E0382), which the runtime raises when `x` is a tensor.  A `.shared()` op is never moved by
a launch that reads it (`SharedDeviceOp`): where every call of the function in its module passes one for `x`, the
runtime never raises there, and the function's own check starts with `x` bound to a shared op.

The rule is deliberately narrow, so that it never hides a use after move that some call would make: the front end
lists every mention of the function's name in its module (`Mention`), and the facts hold only when each mention is
the callee of a direct call (not a reference passed on, rebound, or called with a `*` / `**` splat, which could
hand the function anything) and that call passes `<expr>.shared()` written in the call for the parameter, by
position or by keyword.  A call passing anything else (a name, even one bound to a shared op; a tensor) keeps the
parameter a caller's value.  Calls from other modules are not seen, as for the module's other call summaries.
The function's call summaries (what a call does to the caller's values) are unchanged: only its own check starts
from the fact.  Both front ends compute the mentions from their own trees and call `shared_parameters`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: The method whose result a launch reads without moving it (`DeviceOp.shared`, `Tensor.shared`).
SHARED_METHOD = "shared"


@dataclass(frozen=True)
class Mention:
    """One mention of the function's name in its module.  `direct`: it is the callee of a call without `*` / `**`
    arguments (anything else may hand the function other values).  `shared_positions` / `shared_keywords`: the
    positional indexes and keyword names at which that call passes a `.shared()` call written there."""

    direct: bool
    shared_positions: frozenset[int] = frozenset()
    shared_keywords: frozenset[str] = frozenset()


NOT_A_CALL = Mention(False)

#: Names through which code reaches a module's function without writing its name (`globals()["f"]`,
#: `sys.modules[__name__]`, `vars(module)`): a module mentioning one may call any of its functions with anything.
REFLECTION: frozenset[str] = frozenset(
    {"globals", "vars", "locals", "__dict__", "modules", "import_module", "__import__"}
)


def shared_parameters(
    positional: Sequence[str], keyword_only: Sequence[str], mentions: Sequence[Mention]
) -> tuple[str, ...]:
    """The parameters (`positional` in order, then `keyword_only`) for which every mention is a direct call passing
    a `.shared()` op; none when the function is never called or some mention is no direct call."""
    if not mentions or any(not m.direct for m in mentions):
        return ()
    found: list[str] = []
    for index, name in enumerate(positional):
        if all(index in m.shared_positions or name in m.shared_keywords for m in mentions):
            found.append(name)
    for name in keyword_only:
        if all(name in m.shared_keywords for m in mentions):
            found.append(name)
    return tuple(found)
