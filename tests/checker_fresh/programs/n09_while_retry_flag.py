# fresh-expect: E0382 at line 22
"""A retry loop with a flag runs the same op again when the check fails."""
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
op = add(z, x, y)
attempts = 0
ok = False
while not ok and attempts < 3:
    z, x, y = op.sync_on(stream)  # BUG E0382 (second attempt)
    attempts += 1
    ok = attempts >= 2
