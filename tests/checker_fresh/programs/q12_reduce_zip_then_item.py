# fresh-expect: E0382 at line 21
"""functools.reduce folds a list of launches into one op with sk.zip; the code then syncs one of the folded ops."""
import functools

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


stream = sk.Device.cpu().new_stream()
n = 128
ops = [scale(tile.zeros((n,), f32).partition((64,)), tile.full((n,), float(k), f32)) for k in range(3)]
combined = functools.reduce(sk.zip, ops)
results = combined.sync_on(stream)
first_out, _ = ops[0].sync_on(stream)  # BUG
print(first_out.unpartition().to_numpy(stream)[:2])
