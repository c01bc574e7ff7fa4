"""A move inside `zz, xx, yy = add(z, x, y).sync_on(stream)` on one line: the plugin keeps its notes and help."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device.default().new_stream()
    z = tile.zeros((1000,), f32).partition((256,))
    x = tile.ones((1000,), f32)
    y = tile.ones((1000,), f32)
    zz, xx, yy = add(z, x, y).sync_on(stream)
    print(x.sync_on(stream))  # expect: E0382
