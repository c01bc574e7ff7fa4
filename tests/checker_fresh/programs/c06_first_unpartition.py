# fresh-expect: clean
"""first() then unpartition() lazily, and one sync at the end."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def doubled_ones(n: int, stream):
    launch = double(tile.zeros((n,), f32).partition((16,)), tile.ones((n,), f32))
    return launch.first().unpartition().sync_on(stream)


stream = sk.Device.cpu().new_stream()
assert (doubled_ones(64, stream).to_numpy(stream) == 2.0).all()
