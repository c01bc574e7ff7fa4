"""The look-alike of `e0382_contextlib_suppress`: the suppressed body only reads before it returns, so the move
after the `with` statement is the first."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)

from contextlib import suppress


def main() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    with suppress(ValueError):
        print(x)
        return
    add(z, x, y).sync()
