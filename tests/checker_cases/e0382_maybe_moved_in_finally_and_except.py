"""A value moved inside `try` is maybe-moved in the `except` handlers and in `finally` (the move may have
happened before the exception)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)


def risky() -> None:
    pass


def in_finally() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    try:
        add(z, x, y).sync()
        risky()
        x = tile.ones((1024,), f32)
    finally:
        print(x)  # expect: E0382


def in_handler() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    try:
        add(z, x, y).sync()
        risky()
        x = tile.ones((1024,), f32)
    except ValueError:
        print(x)  # expect: E0382
