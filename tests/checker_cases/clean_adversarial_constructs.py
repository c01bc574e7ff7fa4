"""The look-alikes of `e0382_adversarial_constructs`: every value is re-bound (`del` then a new value, a fresh
value after `await`) or only read before it moves (a lambda called, a comprehension evaluated, a partial called)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)
import asyncio
import functools


async def asynchronous() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    add(z, x, y).sync()
    await asyncio.sleep(0)
    x = tile.ones((1024,), f32)
    print(x)


def deleted_then_rebound() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    add(z, x, y).sync()
    del x
    x = tile.ones((1024,), f32)
    print(x)


def read_before_the_move() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    show = functools.partial(print, x)
    show()
    print([x for _ in range(2)], (lambda: x)())
    add(z, x, y).sync()


def while_else_breaks_before_the_move() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    while True:
        break
    else:
        add(z, x, y)
    print(x)
