# fresh-expect: E0382 at line 23
"""Ops built with map over the same output partition: the second build reuses a moved value."""
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
x = tile.ones((128,), f32).sync_on(stream)
y = tile.ones((128,), f32).sync_on(stream)
z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
ops = list(map(lambda src: scale(z, src), [x, y]))  # BUG
