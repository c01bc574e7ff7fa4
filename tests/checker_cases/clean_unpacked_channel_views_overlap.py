"""The clean twin of `e0499_unpacked_channel_views_overlap`: `channel` returns `self.buf[start : last]`, so the
views unpacked for `c` = 0 and `c` = 1 (from a generator expression over `range`, or a list comprehension over a
display) meet at `planar.frames` without overlapping, and are disjoint outputs of one launch."""

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
        return self.buf[start : last]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(FRAMES, dtype=np.float32), stream)
    planar = Planar.allocate(FRAMES, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=64), dev)
    left, right = (planar.channel(c) for c in range(2))
    split2.launch(prepared, stream, src, left, right)
    low, high = [planar.channel(c) for c in (1, 0)]
    split2.launch(prepared, stream, src, low, high)
    print(planar.buf.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
