# fresh-expect: clean
"""A function consumes its arguments and returns fresh ones."""
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
def train_step(z, x):
    op = scale(z, x)
    return op.sync_on(stream)


x = tile.ones((128,), f32).sync_on(stream)
z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
for _ in range(3):
    z, x = train_step(z, x)
print(z.unpartition().to_numpy(stream)[:2])
