"""Two buffers built apart (`[sk.zeros(...), sk.zeros(...)]` from a helper, a comprehension calling `sk.zeros`
twice) are two objects: unpacked into two names, a launch writing both is fine."""

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
    return [sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = split.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    g = sk.zeros(64, f32, stream)
    m_next, v_next = pair(64, stream)
    split.launch(prep, stream, g, m_next, v_next)
    m, v = [sk.zeros(64, f32, stream) for _ in range(2)]
    split.launch(prep, stream, g, m, v)


if __name__ == "__main__":
    main()
