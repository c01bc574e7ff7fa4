"""A nested function moves captured values through `nonlocal` and binds the results back (`sync_on` returns
them), so the enclosing function's names refer to live values after the call."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main(stream: sk.Stream, flag: bool) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))

    def step() -> None:
        nonlocal z, x, y
        z, x, y = add(z, x, y).sync_on(stream)

    def flatten() -> None:
        nonlocal x, z
        x = z.unpartition()
        z = tile.zeros((1024,), f32).partition((128,))

    step()
    if flag:
        flatten()
    z, x, y = add(z, x, y).sync_on(stream)
    print(z)
