# fresh-expect: E0502 at line 62
# fresh-known-miss: cli,mypy a ring of one buffer ([sk.zeros(...)] * depth in __init__) read through a user __next__ under itertools.pairwise/islice: the items of a user iterator are new values
"""Run a chain of blur passes over a heat map, ping-ponging through a ring of device buffers.

`BufferRing` hands out its slots round-robin forever; `itertools.pairwise` over the first
`passes + 1` slots yields the (source, destination) of every pass.
"""

from __future__ import annotations

import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 512
PASSES = 5


@simt.kernel
@simt.launch_contract(block=128, requires=("len(src) >= n", "len(dst) >= n"))
def blur(src: Slice[f32], dst: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (o := dst.get_mut(idx)) is not None:
        lo = i - 1 if i > 0 else i
        hi = i + 1 if i + 1 < n else i
        o.set((src[lo] + src[i] + src[hi]) / 3.0)


class BufferRing:
    def __init__(self, depth: int, length: int, stream: sk.Stream) -> None:
        self.slots = [sk.zeros(length, f32, stream)] * depth
        self.pos = 0

    def __iter__(self) -> BufferRing:
        return self

    def __next__(self) -> sk.DeviceBuffer:
        slot = self.slots[self.pos % len(self.slots)]
        self.pos += 1
        return slot

    def head(self) -> sk.DeviceBuffer:
        return self.slots[self.pos % len(self.slots)]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prepared = blur.prepare(simt.LaunchConfig1D.for_len(CELLS, block=128), dev)
    ring = BufferRing(depth=2, length=CELLS, stream=stream)
    heat = np.zeros(CELLS, np.float32)
    heat[CELLS // 2] = 100.0
    ring.head().copy_from_numpy(heat, stream)
    last = None
    for src, dst in itertools.pairwise(itertools.islice(ring, PASSES + 1)):
        blur.launch(prepared, stream, src, dst, CELLS)
        last = dst
    result = last.to_numpy(stream)
    print(f"peak after {PASSES} passes: {result.max():.3f}, total heat {result.sum():.1f}")


if __name__ == "__main__":
    main()
