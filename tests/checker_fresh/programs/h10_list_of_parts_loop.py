# fresh-expect: E0382 at line 29
"""Partitions in a list launched in a loop, the list reused afterwards."""
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
x = tile.ones((128,), f32).shared()
parts = [tile.zeros((128,), f32).partition((64,)) for _ in range(3)]
ops = []
for part in parts:
    ops.append(scale(part, x))
for op in ops:
    op.sync_on(stream)
first = parts[0].unpartition()  # BUG
