"""Names a function body binds exactly once, by one plain assignment, to a value of a kind the lowering follows.

Both front ends' pre-passes ask the same question of a body's plain assignments (`pairs`: the names each
assignment binds and its value, in source order): which names are bound once, and never rebound, changed in place
or otherwise made unsure (`unsure`), to a value of some kind (a tuple or list of literal keys, a display of
functions, an iterator the standard library keeps items of, a generator call).  `bound_once` answers it with one
rule: the name is the assignment's only target, the body has no other assignment of it, it is not unsure, and
`kind` finds what the value is (None for a value of another kind).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import TypeVar

V = TypeVar("V")
R = TypeVar("R")


def bound_once(
    pairs: Sequence[tuple[Sequence[str], V]], unsure: Collection[str], kind: Callable[[V], R | None]
) -> dict[str, R]:
    """Each name bound once (see the module) to a value `kind` knows, with what `kind` made of it."""
    counts = Counter(name for names, _ in pairs for name in names)
    found: dict[str, R] = {}
    for names, value in pairs:
        if len(names) != 1 or counts[names[0]] != 1 or names[0] in unsure:
            continue
        made = kind(value)
        if made is not None:
            found[names[0]] = made
    return found
