"""The look-alike of `e0382_return_through_finally`: the `finally` block only reads, the move comes after the
`try` statement, and the paths that leave through `finally` do not move."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)


def early_return(flag: bool) -> int:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    try:
        if flag:
            print(x)
            return 1
    finally:
        print(x)
    add(z, x, y).sync()
    return 0


def early_break(flag: bool) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    while True:
        try:
            if flag:
                break
        finally:
            print(y)
    z = tile.zeros((1024,), f32).partition((128,))
    add(z, x, y).sync()
