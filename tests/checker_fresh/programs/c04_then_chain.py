# fresh-expect: clean
"""A launch op chained with then(); only the chain is run."""
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
z, x, y = logged.sync_on(stream)
assert log == ["done"]
assert (z.unpartition().to_numpy(stream) == 2.0).all()
