# fresh-expect: clean
"""A while loop with a `done` flag rebuilds and runs the op on every pass."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


stream = sk.Device.cpu().new_stream()
z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
x = tile.ones((64,), f32).sync_on(stream)
y = tile.ones((64,), f32).sync_on(stream)
done = False
passes = 0
while not done:
    z, x, y = add(z, x, y).sync_on(stream)
    passes += 1
    done = passes == 3
print(z.to_numpy(stream)[:2])
