# fresh-expect: clean
"""A generator runs each epoch itself, rebinding its own names, and yields host copies."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def epochs(stream, z, x, y, n: int):
    for _ in range(n):
        z, x, y = add(z, x, y).sync_on(stream)
        yield z.to_numpy(stream)


stream = sk.Device.cpu().new_stream()
z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
x = tile.ones((64,), f32).sync_on(stream)
y = tile.ones((64,), f32).sync_on(stream)
for host in epochs(stream, z, x, y, 3):
    print(host[:2])
