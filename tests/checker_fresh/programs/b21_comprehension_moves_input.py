# fresh-expect: E0382 at line 18
"""One launch per output chunk in a list comprehension; the input tensor is moved by the first."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


stream = sk.Device.cpu().new_stream()
x = tile.ones((64,), f32)
y = tile.full((64,), 2.0, f32).shared()
outs = [tile.zeros((64,), f32).partition((32,)) for _ in range(3)]
ops = [add(z, x, y) for z in outs]  # BUG E0382
results = sk.zip(*ops).sync_on(stream)
