"""A kernel launched from another module, with ownership handed back by `sync_on` each time."""

import safekernels as sk
from kernels import add
from safekernels import tile
from safekernels.dtypes import f32


def main(steps: int) -> None:
    stream = sk.Device(0).new_stream()
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    for _ in range(steps):
        z, x, y = add(z, x, y).sync_on(stream)
    print(z.unpartition().to_numpy(stream))
