# fresh-expect: E0382 at line 19
"""A deleted op is gone: syncing it afterwards fails."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


stream = sk.Device.cpu().new_stream()
op = add(tile.zeros((64,), f32).partition((32,)), tile.ones((64,), f32), tile.ones((64,), f32))
backup = op
del op
z, x, y = backup.sync_on(stream)
again = backup.sync_on(stream)  # BUG E0382
