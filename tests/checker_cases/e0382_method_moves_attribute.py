"""A method of a class holding buffers launches with `self.x` (a tile launch moves it): after `job.submit()`, the
caller's `job.x` is moved, and reading it is a use after move noted inside `submit`."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@dataclass
class Job:
    x: Tensor[f32]
    out: Partition[f32]

    def submit(self) -> sk.DeviceOp:
        return scale(self.out, self.x)


def main() -> None:
    stream = sk.Device.default().new_stream()
    job = Job(tile.ones((128,), f32).sync_on(stream), tile.zeros((128,), f32).partition((64,)).sync_on(stream))
    job.submit().sync_on(stream)
    print(job.x.to_numpy(stream))  # expect: E0382
