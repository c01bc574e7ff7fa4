# fresh-expect: clean
"""One input shared read-only by two launches."""
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
z1 = tile.zeros((128,), f32).partition((64,))
z2 = tile.zeros((128,), f32).partition((64,))
(r1, _), (r2, _) = sk.zip(scale(z1, x), scale(z2, x)).sync_on(stream)
assert float(r1.unpartition().to_numpy(stream)[0]) == 2.0
