# fresh-expect: E0382 at line 30
"""A function moves a module-level partition declared global; the module reads it afterwards."""
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
X = tile.ones((128,), f32).sync_on(stream)
Z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)


def launch_scale():
    global Z, X
    return scale(Z, X).sync_on(stream)


result = launch_scale()
print(Z.unpartition().to_numpy(stream)[:2])  # BUG
