# fresh-expect: E0382 at line 16
"""A generator hands out one launch per relaxation step; the caller takes the values back, the generator does not."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def relax(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 0.5 + z.load())


def relax_steps(z, x, count: int):
    for _ in range(count):
        yield relax(z, x)  # BUG


stream = sk.Device.cpu().new_stream()
z = tile.zeros((128,), f32).partition((64,))
x = tile.ones((128,), f32)
for op in relax_steps(z, x, 3):
    z, x = op.sync_on(stream)
print(z.unpartition().to_numpy(stream)[:4])
