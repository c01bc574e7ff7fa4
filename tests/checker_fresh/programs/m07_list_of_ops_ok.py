# fresh-expect: clean
"""Ops collected in a list and run together."""
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
ops = [scale(tile.zeros((128,), f32).partition((64,)), x) for _ in range(3)]
results = [op.sync_on(stream) for op in ops]
assert all(float(r[0].unpartition().to_numpy(stream)[0]) == 2.0 for r in results)
