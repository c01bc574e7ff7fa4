"""The clean twin of `e0382_kernel_factory_rebound`: the values a launch through the rebound factory kernel moved
are taken back from its op before they are read."""

import sys
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


def make_tile_kernel() -> Any:
    """A kernel factory: the kernel is defined in a function body and returned."""

    @tile.kernel
    def made(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) * tile.load_like(y, z))

    return made


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)
    made = make_tile_kernel()
    z, x, y = made(z, x, y).sync_on(stream)
    if len(sys.argv) > 5:
        made = make_tile_kernel()
    op = made(z, x, y)
    z, x, y = op.sync_on(stream)
    print(x.to_numpy(stream)[:2])
