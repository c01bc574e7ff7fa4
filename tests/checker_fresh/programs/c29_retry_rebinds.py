# fresh-expect: clean
# (once a known false alarm, sound only on the exceptional path: the launch moves x, y before sync_on runs it,
# and sync_on can raise RuntimeError (a tile launch on a GPU: cuTensorMapEncodeTiled fails) into this handler
"""Retry around a launch: the try rebinds its inputs from the launch's value before it raises, so the except may reuse them."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def run_with_retry(stream):
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    try:
        z, x, y = add(tile.zeros((64,), f32).partition((32,)), x, y).sync_on(stream)
        raise RuntimeError("pretend the first result was bad")
    except RuntimeError:
        z, x, y = add(tile.zeros((64,), f32).partition((32,)), x, y).sync_on(stream)
    finally:
        pass
    return z


run_with_retry(sk.Device.cpu().new_stream())
