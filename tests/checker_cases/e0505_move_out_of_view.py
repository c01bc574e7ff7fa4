"""A view (`c.view(...)`, a slice, a `split_at` half) only borrows its base's memory: moving it to another device
or into a tile launch is refused at run time (`BorrowError`), and reported statically."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main(dev: sk.Device, stream: sk.Stream) -> None:
    c = sk.zeros(64, f32, stream)
    c = c.view(16, 48)
    c = c.to(dev, stream)  # expect: E0505
    b = sk.zeros(64, f32, stream)
    lo, hi = b.split_at(32)
    z = tile.zeros((32,), f32).partition((16,))
    z, lo, y = add(z, lo, tile.ones((32,), f32)).sync_on(stream)  # expect: E0505
    print(c, hi, z, y)
