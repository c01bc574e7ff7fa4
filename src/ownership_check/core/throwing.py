"""Which functions of a file may raise an exception of a class the file defines.

A `try` whose every handler names only exception classes defined in the file (`except ThinPaint:`) catches only
what the file's own code raises: the library never raises a user's class.  The front ends describe the file's
functions (`FunctionFacts`) and every name it reads (whether as a call's callee); `throwing_names` gives the names
of the functions that may raise one, to a fixed point over calls by name, or None when such a function could run
without being named at a call, where a statement's words cannot tell that it may raise."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

#: Methods a class's construction runs: a class whose one of these may raise counts by the class's own name.
CONSTRUCTION_METHODS: Final[frozenset[str]] = frozenset({"__init__", "__post_init__", "__new__"})


@dataclass(frozen=True)
class FunctionFacts:
    """One function or method of the file: its name, the class whose body defines it (None: not a method), whether
    its body has a `raise` or a `yield`, and the names and attribute names its body reads."""

    name: str
    owner: str | None
    raises: bool
    generator: bool
    mentioned: frozenset[str]


def throwing_names(functions: Sequence[FunctionFacts], mentions: Iterable[tuple[str, bool]]) -> frozenset[str] | None:
    """The names of the functions that may raise (a `raise`, or a call by name of one that may, to a fixed point; a
    class whose construction method may raise, by the class's name).  None when one of them may run unnamed: a
    generator (run by `next`), a special method other than construction (an operator), or a name of one read other
    than as a call's callee (`mentions`: each name the file reads, and whether it is a callee there)."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for func in functions:
            if func.raises or func.mentioned & found:
                names = {func.name}
                if func.name in CONSTRUCTION_METHODS and func.owner is not None:
                    names.add(func.owner)
                if not names <= found:
                    found |= names
                    changed = True
    for func in functions:
        if func.name not in found:
            continue
        dunder = func.name.startswith("__") and func.name.endswith("__")
        if (dunder and func.name not in CONSTRUCTION_METHODS) or func.generator:
            return None
    for name, callee in mentions:
        if name in found and not callee:
            return None  # `self.on_fail = retry_policy`, `sorted(xs, key=check)`: called where it is not named
    return frozenset(found)
