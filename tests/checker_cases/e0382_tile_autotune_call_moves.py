"""A call of a `@tile.autotune` kernel is a tile launch: it moves its arguments."""

from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


BT = 128


@tile.autotune(configs=[tile.Config(BT=128), tile.Config(BT=256)], key=["x"], warmup=0.2, rep=1.0, verbose=False)
@tile.kernel
def add(z: Annotated[Partition[f32], tile.Dims(BT)], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device.default().new_stream()
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32)
    op = add(z, x, y)
    print(x.sync_on(stream))  # expect: E0382
    op.sync_on(stream)
