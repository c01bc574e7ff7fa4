# fresh-expect: E0382 at line 32
"""A match statement chooses the op; one arm reuses the moved input."""
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
def run(mode: str) -> None:
    x = tile.ones((128,), f32).sync_on(stream)
    y = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,))
    match mode:
        case "add":
            z, x, y = add(z, x, y).sync_on(stream)
        case "twice":
            op = add(z, x, y)
            w = tile.zeros((128,), f32).partition((64,))
            again = scale(w, x)  # BUG
            sk.zip(op, again).sync_on(stream)
        case _:
            pass


run("add")
run("twice")
