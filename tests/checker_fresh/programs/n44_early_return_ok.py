# fresh-expect: clean
"""The op is built only after the early return, so no path drops it."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def maybe_step(stream, dry_run: bool):
    if dry_run:
        print("dry run: nothing to do")
        return None
    z = tile.zeros((64,), f32).partition((32,))
    op = add(z, tile.ones((64,), f32), tile.ones((64,), f32))
    out, _, _ = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


maybe_step(sk.Device.cpu().new_stream(), True)
print(maybe_step(sk.Device.cpu().new_stream(), False)[:2])
