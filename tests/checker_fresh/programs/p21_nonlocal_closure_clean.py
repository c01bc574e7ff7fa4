# fresh-expect: clean
"""A closure keeps the current partition in a nonlocal and rebinds it after each run."""
import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)

stream = sk.Device.cpu().new_stream()


def make_stepper():
    x = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)

    def step():
        nonlocal z, x
        z, x = scale(z, x).sync_on(stream)
        return z

    return step


step = make_stepper()
step()
last = step()
print(type(last).__name__)
