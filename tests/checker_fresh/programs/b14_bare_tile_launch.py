# fresh-expect: W0003 at line 16
"""A helper builds the launch but never runs it."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def axpy(z: Partition[f32], x: Tensor[f32], a: f32) -> None:
    z.store(tile.load_like(x, z) * a + z.load())


def bump(x, n: int) -> None:
    z = tile.zeros((n,), f32).partition((32,))
    axpy(z, x, 2.0)  # BUG W0003


bump(tile.ones((128,), f32), 128)
