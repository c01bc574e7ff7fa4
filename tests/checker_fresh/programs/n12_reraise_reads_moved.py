# fresh-expect: E0382 at line 25
"""A validation callback fails inside the chain; the handler logs the old handle and re-raises."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def reject_negative(values):
    raise ValueError("negative values")


stream = sk.Device.cpu().new_stream()
z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
x = tile.ones((64,), f32).sync_on(stream)
y = tile.ones((64,), f32).sync_on(stream)
try:
    z, x, y = add(z, x, y).then(reject_negative).sync_on(stream)
except ValueError:
    print("step failed; z was", z.to_numpy(stream)[:2])  # BUG E0382
    raise
