# fresh-expect: clean
"""The op runs on both branches."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def axpy(z: Partition[f32], x: Tensor[f32], a: f32) -> None:
    z.store(tile.load_like(x, z) * a + z.load())


def step(stream, verbose: bool) -> None:
    z = tile.zeros((64,), f32).partition((32,))
    op = axpy(z, tile.ones((64,), f32), 0.5)
    if verbose:
        out, _, _ = op.sync_on(stream)
        print(out.to_numpy(stream))
    else:
        op.sync_on(stream)


step(sk.Device.cpu().new_stream(), False)
