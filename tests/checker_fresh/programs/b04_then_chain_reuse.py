# fresh-expect: E0382 at line 18
"""A launch op chained with then() and then run directly as well."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


log: list[str] = []
stream = sk.Device.cpu().new_stream()
op = add(tile.zeros((128,), f32).partition((32,)), tile.ones((128,), f32), tile.ones((128,), f32))
logged = op.then(lambda value: (log.append("done"), value)[1])
z, x, y = op.sync_on(stream)  # BUG E0382
logged.sync_on(stream)
