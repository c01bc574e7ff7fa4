# fresh-expect: clean
"""A shared constant op is passed as both inputs of one tile launch and reused across steps of a loop."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def accumulate_steps(stream, n: int, steps: int):
    ones = tile.ones((n,), f32).shared()
    acc = None
    for _ in range(steps):
        z, _, _ = add(tile.zeros((n,), f32).partition((64,)), ones, ones).sync_on(stream)
        acc = z.unpartition()
    return acc.to_numpy(stream)[:4]


print(accumulate_steps(sk.Device.cpu().new_stream(), 256, 2))
