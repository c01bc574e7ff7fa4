# fresh-expect: W0003 at line 16
"""An early return for the `dry_run` case leaves the op built and unrun."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def maybe_step(stream, dry_run: bool):
    z = tile.zeros((64,), f32).partition((32,))
    op = add(z, tile.ones((64,), f32), tile.ones((64,), f32))  # BUG W0003
    if dry_run:
        print("dry run: nothing to do")
        return None
    out, _, _ = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


maybe_step(sk.Device.cpu().new_stream(), True)
