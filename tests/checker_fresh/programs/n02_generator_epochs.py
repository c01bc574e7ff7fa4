# fresh-expect: E0382 at line 16
"""A generator yields one op per epoch; the caller rebinds its own names, which the generator never sees."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def epochs(z, x, y, n: int):
    for _ in range(n):
        yield add(z, x, y)  # BUG E0382 (z, x, y moved in the previous epoch)


stream = sk.Device.cpu().new_stream()
z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
x = tile.ones((64,), f32).sync_on(stream)
y = tile.ones((64,), f32).sync_on(stream)
for op in epochs(z, x, y, 3):
    z, x, y = op.sync_on(stream)
print(z.to_numpy(stream)[:4])
