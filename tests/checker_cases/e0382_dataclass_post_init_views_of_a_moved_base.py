"""A dataclass's `__post_init__` stores the two halves of its `data` field once (`split_at`); a tile launch then
moves `data` and the caller stores the buffer it hands back, but the stored halves are views of the moved one, so
the next launch writing them uses a moved value (the runtime raises there)."""

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def pan(mono: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := left.get_mut(idx)) is not None:
        lo.set(lo.get() + mono[i])
    idx2 = thread.index_1d()
    if (ro := right.get_mut(idx2)) is not None:
        ro.set(ro.get() + mono[i])


@tile.kernel
def energy(e: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, e)
    e.store(t * t)


@dataclass
class StereoBlock:
    frames: int
    data: sk.DeviceBuffer
    left: sk.DeviceBuffer = field(init=False)
    right: sk.DeviceBuffer = field(init=False)

    def __post_init__(self) -> None:
        self.left, self.right = self.data.split_at(self.frames)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = pan.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    block = StereoBlock(N, sk.zeros(2 * N, f32, stream))
    for _ in range(2):
        mono = sk.to_device(np.ones(N, np.float32), stream)
        pan.launch(prep, stream, mono, block.left, block.right)  # expect: E0382
        e, block.data = energy(tile.zeros((2 * N,), f32).partition((N,)), block.data).sync_on(stream)
        print(e.unpartition().to_numpy(stream).sum())
