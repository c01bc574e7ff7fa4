"""Returning a moved value is a use after move."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def launch_and_keep() -> sk.DeviceOp[f32]:
    x = tile.ones((256,), f32)
    z = tile.zeros((256,), f32).partition((64,))
    op = scale(z, x)
    print(op)
    return z  # expect: E0382
