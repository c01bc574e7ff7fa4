"""A nested `async def` awaited from another nested function (`asyncio.run(outer())`, `outer` doing `await
inner()`) moves what `inner` moves: the enclosing function sees it at the `asyncio.run(...)` that runs them."""

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
        nonlocal z
        z = add(z, x, y).sync_on(stream)[0]

    async def outer() -> None:
        await inner()

    asyncio.run(outer())
    print(x.to_numpy(stream)[:2])  # expect: E0382
