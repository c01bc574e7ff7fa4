# fresh-expect: E0382 at line 23
"""Retry loop around a launch: the except branch reuses an input that the try moved before failing."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def run_with_retry(stream, fail: bool):
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    try:
        op = add(tile.zeros((64,), f32).partition((32,)), x, y)
        if fail:
            raise RuntimeError("pretend the launch could not be queued")
        z, x, y = op.sync_on(stream)
    except RuntimeError:
        z, x, y = add(tile.zeros((64,), f32).partition((32,)), x, y).sync_on(stream)  # BUG E0382
    return z


run_with_retry(sk.Device.cpu().new_stream(), True)
