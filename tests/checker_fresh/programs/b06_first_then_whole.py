# fresh-expect: E0382 at line 17
"""first() moves the launch op; the whole tuple is no longer available."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def doubled_ones(n: int, stream: sk.Stream):
    launch = double(tile.zeros((n,), f32).partition((16,)), tile.ones((n,), f32))
    out_only = launch.first().unpartition()
    out, x = launch.sync_on(stream)  # BUG E0382
    return out_only.sync_on(stream), x


stream = sk.Device.cpu().new_stream()
print(doubled_ones(64, stream))
