# fresh-expect: E0382 at line 18
"""Capturing an op as a graph consumes it; syncing it afterwards is a use after move."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


stream = sk.Device.cpu().new_stream()
step = add(tile.zeros((64,), f32).partition((32,)), tile.ones((64,), f32), tile.ones((64,), f32))
graph = step.graph_on(stream)
graph.replay()
z, x, y = step.sync_on(stream)  # BUG E0382
