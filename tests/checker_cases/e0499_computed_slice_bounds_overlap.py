"""Views sliced with computed bounds are compared symbolically: `Planar.channel(c)` returns `self.buf[start : last +
1]` with `start = c * self.frames` and `last = start + self.frames`, so `planar.channel(0)` is `planar.buf[0 : F +
1]` and `planar.channel(1)` is `planar.buf[F : 2 * F + 1]` (F = `planar.frames`): they overlap by one element
whatever F is, and both as outputs of one launch is E0499 (the runtime refuses the overlapping ranges).  Inline
slices with affine bounds over names bound once (`buf[start : start + w + 1]`, `buf[start + w :]`) overlap the same
way."""

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


class Planar:
    def __init__(self, frames: int, stream: sk.Stream) -> None:
        self.buf = sk.zeros(2 * frames + 8, f32, stream)
        self.frames = frames

    def channel(self, c: int) -> sk.DeviceBuffer:
        start = c * self.frames
        last = start + self.frames
        return self.buf[start : last + 1]


def windows(buf: sk.DeviceBuffer, start: int, w: int, src: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream) -> None:
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(w, block=64), dev)
    split2.launch(prepared, stream, src, buf[start : start + w + 1], buf[start + w :])  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(FRAMES, dtype=np.float32), stream)
    planar = Planar(FRAMES, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=64), dev)
    left = planar.channel(0)
    right = planar.channel(1)
    split2.launch(prepared, stream, src, left, right)  # expect: E0499
    windows(planar.buf, 8, 32, src, dev, stream)
    print(planar.buf.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
