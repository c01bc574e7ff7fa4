"""A nested function moves captured values in a loop and binds the results back on each iteration (`sync_on`
returns them), after the enclosing function got them back from its own launch: no use after move."""

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
    z, x, y = add(z, x, y).sync_on(stream)

    def inner() -> None:
        nonlocal z, x, y
        for _ in range(k):
            z, x, y = add(z, x, y).sync_on(stream)

    inner()
    print(z.unpartition().to_numpy(stream))
