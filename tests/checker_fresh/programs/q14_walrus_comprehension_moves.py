# fresh-expect: E0382 at line 17
"""A comprehension with a walrus filter builds one launch per output partition from a single input."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


stream = sk.Device.cpu().new_stream()
x = tile.ones((128,), f32)
outputs = [tile.zeros((128,), f32).partition((64,)) for _ in range(3)]
ops = [op for z in outputs if (op := scale(z, x)) is not None]  # BUG
for op in ops:
    op.sync_on(stream)
