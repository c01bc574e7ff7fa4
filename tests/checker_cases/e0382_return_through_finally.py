"""`return`, `break` and `continue` inside `try` run the `finally` block: a value moved before them is moved there."""

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
            add(z, x, y).sync()
            return 1
    finally:
        print(x)  # expect: E0382
    return 0


def early_break(flag: bool) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    while True:
        try:
            if flag:
                add(z, x, y).sync()
                break
        finally:
            print(y)  # expect: E0382


def early_continue(n: int) -> None:
    for i in range(n):
        x = tile.ones((1024,), f32)
        y = tile.ones((1024,), f32)
        z = tile.zeros((1024,), f32).partition((128,))
        try:
            if i == 0:
                add(z, x, y).sync()
                continue
        finally:
            print(x)  # expect: E0382
        return
