"""`with contextlib.suppress(E):` is `try: ... except E: pass`: the body may stop after any operation and go on
after the `with` statement, so a move before the body's `return` reaches the code after it."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)

import contextlib
from contextlib import suppress


def qualified() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    with contextlib.suppress(ValueError):
        add(z, x, y).sync()
        return
    print(x)  # expect: E0382


def imported() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    with suppress(ValueError, KeyError):
        add(z, x, y).sync()
        return
    print(y)  # expect: E0382
