"""`nonlocal op` in a nested function declares the name, it does not read the (moved) value; only a use would."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main(stream: sk.Stream) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)
    z, x, y = op.sync_on(stream)

    def reset() -> None:
        nonlocal op
        op = add(z, x, y)
        del op

    reset()
