# fresh-expect: W0003 at line 20
"""A refinement step builds its tile op first, then bails out early from inside a contextlib.suppress block
when the tolerance is already met; the op is dropped without running."""
import contextlib

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def relax(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 0.5)


def refine(stream, n: int, residuals: dict[str, float]):
    z = tile.zeros((n,), f32).partition((64,))
    x = tile.ones((n,), f32)
    op = relax(z, x)  # BUG
    with contextlib.suppress(KeyError):
        if residuals["l2"] < 1e-3:
            return None
        z, x = op.sync_on(stream)
        return z.unpartition().to_numpy(stream)
    return None


if __name__ == "__main__":
    print(refine(sk.Device.cpu().new_stream(), 128, {"l2": 1e-6}))
