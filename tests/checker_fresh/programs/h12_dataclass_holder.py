# fresh-expect: E0382 at line 36
"""A dataclass holds the tensors; a method moves x and the caller reads it."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


stream = sk.Device.cpu().new_stream()
from dataclasses import dataclass


@dataclass
class Job:
    x: Tensor[f32]
    out: Partition[f32]

    def submit(self):
        return scale(self.out, self.x)


job = Job(tile.ones((128,), f32).sync_on(stream), tile.zeros((128,), f32).partition((64,)).sync_on(stream))
op = job.submit()
print(job.x.to_numpy(stream))  # BUG
op.sync_on(stream)
