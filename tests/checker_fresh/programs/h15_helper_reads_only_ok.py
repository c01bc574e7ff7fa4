# fresh-expect: clean
"""A helper only reads the tensor it is given; the caller launches with it afterwards."""
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
def checksum(t) -> float:
    return float(t.to_numpy(stream).sum())


x = tile.ones((128,), f32).sync_on(stream)
before = checksum(x)
z, x = scale(tile.zeros((128,), f32).partition((64,)), x).sync_on(stream)
assert before == 128.0
