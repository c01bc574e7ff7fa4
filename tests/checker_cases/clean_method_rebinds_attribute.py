"""A method moves `self.out` and `self.x` into a launch and binds them back to the values `sync_on` returns: the
caller's `job.x` is live after each call, also in a loop that builds a new job each time."""

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

    def step(self, stream: sk.Stream) -> None:
        self.out, self.x = scale(self.out, self.x).sync_on(stream)

    def peek(self, stream: sk.Stream) -> float:
        return float(self.x.to_numpy(stream)[0])


def main() -> None:
    stream = sk.Device.default().new_stream()
    job = Job(tile.ones((128,), f32).sync_on(stream), tile.zeros((128,), f32).partition((64,)).sync_on(stream))
    job.step(stream)
    job.step(stream)
    print(job.x.to_numpy(stream), job.peek(stream))
    for _ in range(2):
        fresh = Job(tile.ones((128,), f32).sync_on(stream), tile.zeros((128,), f32).partition((64,)).sync_on(stream))
        fresh.step(stream)
        print(fresh.peek(stream))
