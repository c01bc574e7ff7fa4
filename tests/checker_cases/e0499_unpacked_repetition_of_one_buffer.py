"""Repetition copies references: `[sk.zeros(...)] * 2` is one buffer twice, so unpacking it (directly, or from
a helper returning it) gives two names for one buffer, and a launch writing both is E0499, as at run time."""

from typing import Any

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split(a: Slice[f32], b: DisjointSlice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := b.get_mut(idx)) is not None:
        out.set(a[i])
    if (o2 := c.get_mut(thread.index_1d())) is not None:
        o2.set(a[i])


def pair(n: int, stream: Any) -> list[Any]:
    return [sk.zeros(n, f32, stream)] * 2


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = split.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    g = sk.zeros(64, f32, stream)
    m_next, v_next = pair(64, stream)
    split.launch(prep, stream, g, m_next, v_next)  # expect: E0499
    m, v = [sk.zeros(64, f32, stream)] * 2
    split.launch(prep, stream, g, m, v)  # expect: E0499


if __name__ == "__main__":
    main()
