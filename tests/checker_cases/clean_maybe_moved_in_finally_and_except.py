"""The look-alike of `e0382_maybe_moved_in_finally_and_except`: the moved value is re-bound before anything in
the `try` body can raise, so the handlers and `finally` see a live value."""

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
        risky()
    finally:
        print(x)
    add(z, x, y).sync()


def in_handler() -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    try:
        risky()
    except ValueError:
        print(x)
    add(z, x, y).sync()
