"""Views of one buffer unpacked from a generator expression over `range` (`left, right = (planar.channel(c) for c in
range(2))`): each name is what `channel` returns for its own `c` (0, then 1), so with `return self.buf[start : last +
1]` (`start = c * self.frames`, `last = start + self.frames`) the two views overlap by one element and both as
outputs of one launch is E0499 (the runtime refuses the overlapping ranges).  `planar` comes from a classmethod
returning `cls(...)`: an object of the dataclass, whose `buf` field is declared a device buffer.  A list
comprehension over a display unpacks the same way."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 64


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (a := lo.get_mut(thread.index_1d())) is not None:
        a.set(src[i] * 0.5)
    if (b := hi.get_mut(thread.index_1d())) is not None:
        b.set(src[i] * 2.0)


@dataclass
class Planar:
    buf: sk.DeviceBuffer
    frames: int

    @classmethod
    def allocate(cls, frames: int, stream: sk.Stream) -> Planar:
        return cls(sk.zeros(2 * frames + 8, f32, stream), frames)

    def channel(self, c: int) -> sk.DeviceBuffer:
        start = c * self.frames
        last = start + self.frames
        return self.buf[start : last + 1]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(FRAMES, dtype=np.float32), stream)
    planar = Planar.allocate(FRAMES, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=64), dev)
    left, right = (planar.channel(c) for c in range(2))
    split2.launch(prepared, stream, src, left, right)  # expect: E0499
    low, high = [planar.channel(c) for c in (1, 0)]
    split2.launch(prepared, stream, src, low, high)  # expect: E0499
    print(planar.buf.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
