# fresh-expect: W0003 at line 16
"""The op is run only when `verbose` is set; otherwise it is dropped unrun."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def axpy(z: Partition[f32], x: Tensor[f32], a: f32) -> None:
    z.store(tile.load_like(x, z) * a + z.load())


def step(stream, verbose: bool) -> None:
    z = tile.zeros((64,), f32).partition((32,))
    op = axpy(z, tile.ones((64,), f32), 0.5)  # BUG W0003
    if verbose:
        out, _, _ = op.sync_on(stream)
        print(out.to_numpy(stream))


step(sk.Device.cpu().new_stream(), False)
