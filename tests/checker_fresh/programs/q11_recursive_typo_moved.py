# fresh-expect: E0382 at line 18
"""A recursive repeat passes the old input on instead of the one the launch handed back."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0 + z.load())


def repeat(stream, z, x, times: int):
    if times == 0:
        return z, x
    z2, x2 = scale(z, x).sync_on(stream)
    return repeat(stream, z2, x, times - 1)  # BUG


stream = sk.Device.cpu().new_stream()
z, x = repeat(stream, tile.zeros((128,), f32).partition((64,)), tile.ones((128,), f32), 3)
print(z.unpartition().to_numpy(stream)[:4])
