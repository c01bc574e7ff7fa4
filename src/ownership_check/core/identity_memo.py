"""Values remembered per object, found by the object's identity.

The front ends remember what they computed about a syntax node (a class's tables, a function's free names, what
a name qualifies to) for as long as one file or one function is analysed.  Nodes are not hashable by value (two
equal-looking nodes at different places mean different things), so the natural key is `id(node)`.  A bare
`id` key is only sound while the keyed object is alive: the lowering also builds nodes of its own (a lambda's
function, a rewritten call), and once one of them is freed a new object may get its `id` and would read the first
one's entry.  That made results depend on the allocator (a report found or lost depending on which file was
analysed before), so every such memo keeps the object with its value and a hit must be that same object; keeping
it also keeps the `id` from being reused while the memo lives.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityMemo(Generic[K, V]):
    """A map from objects (by identity) to values: `memo[node] = value`, `memo.get(node)`."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[int, tuple[K, V]] = {}

    def get(self, key: K) -> V | None:
        hit = self._entries.get(id(key))
        return hit[1] if hit is not None and hit[0] is key else None

    def entry(self, key: K) -> tuple[K, V] | None:
        """`(key, value)` when `key` has a value (which may be None), else None."""
        hit = self._entries.get(id(key))
        return hit if hit is not None and hit[0] is key else None

    def __setitem__(self, key: K, value: V) -> None:
        self._entries[id(key)] = (key, value)

    def __contains__(self, key: K) -> bool:
        hit = self._entries.get(id(key))
        return hit is not None and hit[0] is key

    def pop(self, key: K) -> None:
        """Forget `key`'s value (nothing when there is none)."""
        if key in self:
            del self._entries[id(key)]

    def __len__(self) -> int:
        return len(self._entries)
