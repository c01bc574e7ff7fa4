"""Views read, then the owning buffers moved (to another device, into a tile launch): moving the owner is fine."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main(dev: sk.Device, stream: sk.Stream) -> None:
    c = sk.zeros(64, f32, stream)
    view = c.view(16, 48)
    print(view.to_numpy(stream))
    c = c.to(dev, stream)
    b = sk.zeros(32, f32, stream)
    lo, hi = b.split_at(16)
    print(lo.to_numpy(stream), hi.to_numpy(stream))
    z = tile.zeros((32,), f32).partition((16,))
    z, b, y = add(z, b, tile.ones((32,), f32)).sync_on(stream)
    print(c, z, b, y)
