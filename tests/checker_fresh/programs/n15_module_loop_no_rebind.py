# fresh-expect: E0382 at line 20
"""Module-level script: a loop keeps only the output of each step and reuses the moved inputs."""
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
history = []
for step in range(3):
    out, _, _ = add(z, x, y).sync_on(stream)  # BUG E0382 (second step)
    history.append(out.to_numpy(stream).sum())
