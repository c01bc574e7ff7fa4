"""The kernel is imported under another name and through a module attribute."""

import kernels
import safekernels as sk
from kernels import add as tile_add
from safekernels import tile
from safekernels.dtypes import f32


def main() -> None:
    stream = sk.Device(0).new_stream()
    x = tile.ones((256,), f32)
    y = tile.ones((256,), f32)
    z = tile.zeros((256,), f32).partition((64,))
    z, x, y = tile_add(z, x, y).sync_on(stream)
    op = kernels.add(z, x, y)
    print(op, y.sync_on(stream))  # expect: E0382
