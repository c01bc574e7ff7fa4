"""Moved in the `elif` arm of a three-way branch."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)


def main(mode: int) -> None:
    stream = sk.Device(0).new_stream()
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    if mode == 0:
        print("nothing to do")
    elif mode == 1:
        op = add(z, x, y)
        print(op.sync_on(stream))
    else:
        print("mode", mode)
    op2 = add(z, tile.ones((1024,), f32), tile.ones((1024,), f32))  # expect: E0382
    print(op2)
