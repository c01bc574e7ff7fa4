# fresh-expect: W0003 at line 19
"""A `while True` relaxation builds the next step before testing the step budget, then breaks out of the loop."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def relax(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 0.5)


def relax_until(stream, n: int, budget: int) -> int:
    dst = tile.zeros((n,), f32).partition((64,))
    src = tile.ones((n,), f32)
    steps = 0
    while True:
        op = relax(dst, src)  # BUG
        steps += 1
        if steps > budget:
            break
        out, src = op.sync_on(stream)
        dst = src.partition((64,))
        src = out.unpartition()
    return steps


print(relax_until(sk.Device.cpu().new_stream(), 128, 2))
