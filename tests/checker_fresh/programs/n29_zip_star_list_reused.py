# fresh-expect: E0382 at line 19
"""Ops built in a list are zipped with `sk.zip(*ops)`; the first one is then run on its own too."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


stream = sk.Device.cpu().new_stream()
x = tile.ones((64,), f32).shared()
y = tile.ones((64,), f32).shared()
ops = [add(tile.zeros((64,), f32).partition((32,)), x, y) for _ in range(3)]
both = sk.zip(*ops)
first_result = ops[0].sync_on(stream)  # BUG E0382
both.sync_on(stream)
