# fresh-expect: E0382 at line 30
"""A helper builds the launch; the caller reuses the input it moved."""
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
def double_into(out, src):
    return scale(out, src)


x = tile.ones((128,), f32).sync_on(stream)
z1 = tile.zeros((128,), f32).partition((64,))
z2 = tile.zeros((128,), f32).partition((64,))
first = double_into(z1, x)
print(x.to_numpy(stream))  # BUG
first.sync_on(stream)
