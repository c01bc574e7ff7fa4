"""Bump allocators: a method handing out consecutive slices of one buffer gives disjoint views.

A user-level arena (`def alloc(self, n): start = self.top; self.top += n; return self.buf[start : start + n]`)
returns a view of `self.buf` whose bounds the checker cannot name (`self.top` changes at every call), so two
results would be taken to overlap and every launch of two of them would be a false E0502.  Each call advances the
cursor by the size it hands out, so the calls of such a method on one receiver give views that follow each other
without overlapping, until something else may move the cursor back (`arena.reset()`).

Each front end recognises the method's shape (its own tree) and lists, in source order, the bump calls of a
function and every other mention of their receivers (`BumpEvent`); `bump_sequences` numbers the calls of each
unbroken run, and the view a call gives is part `index` of its run (`ir.Half(site, index)`: disjoint from every
other index of the same site).  A run is broken by any other mention of the receiver (a method call such as
`reset()`, passing it on, rebinding it), and a call inside a loop whose body mentions the receiver otherwise is in
no run (the cursor may go back each iteration, and sizes may change): its view keeps the conservative bounds.
Within a loop that never resets, iterations only move the cursor forward, so the call sites' parts stay disjoint
across iterations; two results of one call site are the same part, which is conservatively taken to overlap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class BumpEvent:
    """A mention of a bump allocator's receiver in a function body, in source order: `call` is the id of a call of
    its bump method (None: any other mention), `loops` the ids of the loops around it."""

    receiver: str
    call: int | None
    loops: tuple[int, ...]


def bump_sequences(events: Sequence[BumpEvent]) -> dict[int, tuple[int, int]]:
    """Per bump call (by id): its run (numbered from 1 in the function) and its index in the run."""
    resetting: dict[str, set[int]] = {}
    for event in events:
        if event.call is None:
            resetting.setdefault(event.receiver, set()).update(event.loops)
    found: dict[int, tuple[int, int]] = {}
    runs: dict[str, list[int]] = {}  # receiver -> [run, next index]
    count = 0
    for event in events:
        reset = resetting.get(event.receiver, set())
        if event.call is None or any(loop in reset for loop in event.loops):
            runs.pop(event.receiver, None)
            continue
        run = runs.get(event.receiver)
        if run is None:
            count += 1
            run = runs[event.receiver] = [count, 0]
        found[event.call] = (run[0], run[1])
        run[1] += 1
    return found
