"""An initializer stores the two halves of its argument (`self.left, self.right = data.split_at(n)`) beside the
argument itself: the object's fields are views of `self.data`, and the twin's launch reads a mono buffer of its own
while it writes the two halves, which are disjoint."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def pan(mono: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := left.get_mut(idx)) is not None:
        lo.set(mono[i] * f32(0.5))
    idx2 = thread.index_1d()
    if (ro := right.get_mut(idx2)) is not None:
        ro.set(mono[i] * f32(0.5))


class StereoBed:
    def __init__(self, frames: int, data: sk.DeviceBuffer) -> None:
        self.frames = frames
        self.data = data
        self.left, self.right = data.split_at(frames)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = pan.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    bed = StereoBed(N, sk.to_device(np.ones(2 * N, np.float32), stream))
    mono = sk.to_device(np.ones(N, np.float32), stream)
    pan.launch(prep, stream, mono, bed.left, bed.right)
    print(bed.data.to_numpy(stream).sum())
