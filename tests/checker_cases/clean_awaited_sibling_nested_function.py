"""The clean twin of `e0382_awaited_sibling_nested_function`: the nested `async def` hands the moved values back
(`nonlocal z, x, y` rebound from the op's value), so the enclosing function reads the new ones after
`asyncio.run(outer())`."""

import asyncio

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)

    async def inner() -> None:
        nonlocal z, x, y
        z, x, y = add(z, x, y).sync_on(stream)

    async def outer() -> None:
        await inner()

    asyncio.run(outer())
    print(x.to_numpy(stream)[:2], z.unpartition().to_numpy(stream)[:2])
