"""The clean twin of `e0499_computed_slice_bounds_overlap`: `Planar.channel(c)` returns `self.buf[start : last]`
with `start = c * self.frames` and `last = start + self.frames`, so `planar.channel(0)` ends exactly where
`planar.channel(1)` starts (`planar.frames`, whatever it is) and the two are disjoint outputs of one launch.  Inline
slices whose bounds are the same affine expression of names bound once meet without overlapping
(`buf[start : start + w]`, `buf[start + w :]`), as do `buf[: n // 2]` and `buf[n // 2 :]`."""

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
        return self.buf[start : last]


def windows(buf: sk.DeviceBuffer, start: int, w: int, src: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream) -> None:
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(w, block=64), dev)
    split2.launch(prepared, stream, src, buf[start : start + w], buf[start + w :])
    n = len(buf)
    split2.launch(prepared, stream, src, buf[: n // 2], buf[n // 2 :])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(FRAMES, dtype=np.float32), stream)
    planar = Planar(FRAMES, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=64), dev)
    left = planar.channel(0)
    right = planar.channel(1)
    split2.launch(prepared, stream, src, left, right)
    windows(planar.buf, 8, 32, src, dev, stream)
    print(planar.buf.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
