# fresh-expect: clean
"""The op is run in `finally`, so it runs whatever happens in between; the values are read afterwards."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def step(stream, z, x, y):
    op = add(z, x, y)
    try:
        print("submitted add")
    finally:
        z, x, y = op.sync_on(stream)
    return z.unpartition().to_numpy(stream)


stream = sk.Device.cpu().new_stream()
print(step(stream, tile.zeros((64,), f32).partition((32,)).sync_on(stream), tile.ones((64,), f32).sync_on(stream),
           tile.ones((64,), f32).sync_on(stream))[:2])
