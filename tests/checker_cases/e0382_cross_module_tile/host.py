"""The kernel is defined in `kernels.py`; its launch here moves `x`."""

import safekernels as sk
from kernels import add
from safekernels import tile
from safekernels.dtypes import f32


def main() -> None:
    stream = sk.Device(0).new_stream()
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    op = add(z, x, y)
    print(op.sync_on(stream))
    print(x.sync_on(stream))  # expect: E0382
