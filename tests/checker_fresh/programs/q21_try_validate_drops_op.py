# fresh-expect: W0003 at line 15
"""The launch is built before the arguments are validated; the except branch reports and returns without running it."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def checked_step(stream, z, x, limit: float):
    op = scale(z, x)  # BUG
    try:
        if limit < 0:
            raise ValueError(f"negative limit {limit}")
    except ValueError as exc:
        print("skipping step:", exc)
        return None
    return op.sync_on(stream)


stream = sk.Device.cpu().new_stream()
checked_step(stream, tile.zeros((128,), f32).partition((64,)), tile.ones((128,), f32), -1.0)
