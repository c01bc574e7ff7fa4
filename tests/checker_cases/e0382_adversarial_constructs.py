"""Constructs that move control or bind names, decided by rustc's rule: `await`, a walrus target inside a
comprehension (it binds in the function), a generator reading a moved value, `while ... else`, attributes of
`self`, and a `functools.partial` of a launch called after the values it was built from were moved (the call
passes the very objects the partial holds; the op it would build is dropped, W0003)."""

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
    print(x)  # expect: E0382


def walrus_in_comprehension() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    print([(t := x) for _ in range(1)])
    add(z, t, y).sync()
    print(x)  # expect: E0382


def partial_application() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    later = functools.partial(add, z)
    add(z, x, y).sync()
    later(x, y)  # expect: E0382, W0003


def generator_after_move() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    add(z, x, y).sync()
    gen = (x for _ in range(2))  # expect: E0382
    print(gen)


def while_else() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    n = 0
    while n < 3:
        n += 1
        if n == 2:
            break
    else:
        add(z, x, y).sync()
    print(x)  # expect: E0382


class Holder:
    def __init__(self) -> None:
        self.buf = tile.ones((1024,), f32)
        self.other = tile.ones((1024,), f32)
        self.z = tile.zeros((1024,), f32).partition((128,))

    def run(self) -> None:
        add(self.z, self.buf, self.other).sync()
        print(self.buf)  # expect: E0382

