# fresh-expect: E0382 at line 30
"""A helper runs the op; the caller runs it again."""
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
def finish(op):
    values = op.sync_on(stream)
    return values[0]


x = tile.ones((128,), f32)
op = scale(tile.zeros((128,), f32).partition((64,)), x)
z = finish(op)
again = op.sync_on(stream)  # BUG
