# fresh-expect: clean
"""Search loop with for/else: every launch takes the inputs back from the last one."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def first_big(stream, limits: list[float]):
    x = tile.ones((64,), f32).sync_on(stream)
    y = tile.ones((64,), f32).sync_on(stream)
    for limit in limits:
        z, x, y = add(tile.zeros((64,), f32).partition((32,)), x, y).sync_on(stream)
        if limit > 10.0:
            return z
    else:
        z, x, y = add(tile.zeros((64,), f32).partition((32,)), x, y).sync_on(stream)
    return z


assert (first_big(sk.Device.cpu().new_stream(), [1.0, 2.0]).to_numpy(sk.Device.cpu().new_stream()) == 2.0).all()
