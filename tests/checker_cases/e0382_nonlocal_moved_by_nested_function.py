"""A nested function moves a captured value through `nonlocal` (`z.unpartition()` consumes the partition); using
the enclosing function's `z` after calling it is a use after move (the runtime raises `UseAfterMoveError`)."""

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

    def flatten() -> None:
        nonlocal x
        x = z.unpartition()

    flatten()
    z, x, y = add(z, x, y).sync_on(stream)  # expect: E0382
    print(z)
