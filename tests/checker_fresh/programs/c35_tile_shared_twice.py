# fresh-expect: clean
"""The same tensor passed twice to a tile launch, made shared first."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def double(t, stream):
    out = tile.zeros((64,), f32).partition((32,))
    shared = t.shared()
    z, *_ = add(out, shared, shared).sync_on(stream)
    return z


stream = sk.Device.cpu().new_stream()
assert (double(tile.ones((64,), f32), stream).unpartition().to_numpy(stream) == 2.0).all()
