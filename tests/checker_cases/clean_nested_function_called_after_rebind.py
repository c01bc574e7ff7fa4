"""A nested function that reads captured values, called after the enclosing function moved them and bound the
values `sync_on` returned to the names: each call reads the new values (and binds new ones back)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main(stream: sk.Stream, k: int) -> None:
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    z = tile.zeros((64,), f32).partition((16,))
    op = add(z, x, y)

    def step() -> None:
        nonlocal x, y, z
        z, x, y = add(z, x, y).sync_on(stream)

    z, x, y = op.sync_on(stream)
    step()
    step()
    print(z.unpartition().to_numpy(stream))
