# fresh-expect: E0382 at line 16
"""The same tensor passed as both inputs of a tile launch inside a helper."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def double(t, stream):
    out = tile.zeros((64,), f32).partition((32,))
    z, *_ = add(out, t, t).sync_on(stream)  # BUG E0382
    return z


double(tile.ones((64,), f32).sync_on(sk.Device.cpu().new_stream()), sk.Device.cpu().new_stream())
