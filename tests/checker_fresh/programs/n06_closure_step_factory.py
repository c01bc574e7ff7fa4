# fresh-expect: E0382 at line 27
"""A factory returns a step closure that runs the launch; the caller keeps using the tensors it passed in."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def make_step(stream):
    def step(z, x, y):
        return add(z, x, y).sync_on(stream)

    return step


stream = sk.Device.cpu().new_stream()
step = make_step(stream)
z = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
x = tile.ones((64,), f32).sync_on(stream)
y = tile.ones((64,), f32).sync_on(stream)
z2, x2, y2 = step(z, x, y)
print(x.to_numpy(stream))  # BUG E0382 (use x2)
