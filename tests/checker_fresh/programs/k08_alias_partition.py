# fresh-expect: E0382 at line 26
"""An alias of a partition is unpartitioned after the original went into a launch."""
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
x = tile.ones((128,), f32)
z = tile.zeros((128,), f32).partition((64,))
keep = z
op = scale(z, x)
view = keep.unpartition()  # BUG
op.sync_on(stream)
