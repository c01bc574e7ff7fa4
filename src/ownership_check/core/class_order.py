"""The order in which Python looks up a method on an instance: the C3 linearization of the module's classes.

`class InPlaceGelu(InPlaceMixin, Layer)` runs `InPlaceMixin.output` where `Layer.forward` calls `self.output()`,
and `Layer.__init__` when it is built.  Both front ends find a class's methods, properties and `__init__` by
walking this order (`ModuleClasses._chain`), so a mixin's override is followed as a single base's is.

Only the module's own classes are known.  A base the module does not define (an imported class, `Generic[T]`, a
class with a metaclass keyword) may define anything, so the order is cut there: lookups walk the known prefix and
stop, as they stop at a base of another module with a single base.  The order is Python's own (C3, the one
`type.__mro__` computes); bases it cannot merge (a `TypeError` at class creation) give the class alone.

    class A: ...            mro(C) = C, A, B          mro(D) = D, C, A, B
    class B: ...
    class C(A, B): ...
    class D(C, B): ...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: The bases of a class of the module by name, in the order written (`object` left out), or None for a name the
#: module does not define.  A base that is not a plain name (`Generic[T]`, `mod.Base`) or a metaclass keyword is
#: given as a text no class of the module has (`UNKNOWN_BASE`): the order is cut there.
BasesOf = Callable[[str], Sequence[str] | None]

#: What a front end gives for a base it cannot name (`Generic[T]`, `abc.ABC`, `metaclass=M`).
UNKNOWN_BASE = "<unknown base>"

#: Deeper hierarchies than this are not followed (a guard against a cycle of names, which Python refuses).
MAX_DEPTH = 64


def linearized(name: str, bases_of: BasesOf) -> tuple[tuple[str, ...], bool]:
    """The method resolution order of class `name` (a class of the module), cut before the first class the module
    does not define, and whether it is complete (no class was cut: every class of the real order is known)."""
    memo: dict[str, tuple[str, ...] | None] = {}
    order = _mro(name, bases_of, memo, 0)
    if order is None:
        return (name,), False
    known: list[str] = []
    for entry in order:
        if bases_of(entry) is None:
            return tuple(known), False
        known.append(entry)
    return tuple(known), True


def _mro(name: str, bases_of: BasesOf, memo: dict[str, tuple[str, ...] | None], depth: int) -> tuple[str, ...] | None:
    if name in memo:
        return memo[name]
    if depth > MAX_DEPTH:
        return None
    memo[name] = None  # a cycle of names gives no order
    bases = bases_of(name)
    if bases is None:
        result: tuple[str, ...] | None = (name,)
    else:
        parents = [_mro(base, bases_of, memo, depth + 1) for base in bases]
        if any(p is None for p in parents):
            result = None
        else:
            merged = _merge([list(p) for p in parents if p is not None] + [list(bases)])
            result = (name, *merged) if merged is not None else None
    memo[name] = result
    return result


def _merge(sequences: list[list[str]]) -> list[str] | None:
    """C3's merge: repeatedly take the first head that appears in no other sequence's tail."""
    out: list[str] = []
    pending = [s for s in sequences if s]
    while pending:
        head = next((s[0] for s in pending if not any(s[0] in other[1:] for other in pending)), None)
        if head is None:
            return None  # Python refuses such a class (`TypeError: Cannot create a consistent MRO`)
        out.append(head)
        pending = [[c for c in s if c != head] for s in pending]
        pending = [s for s in pending if s]
    return out
