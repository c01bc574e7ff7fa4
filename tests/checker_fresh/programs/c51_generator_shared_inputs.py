# fresh-expect: clean
# fresh-note: clean since: a parameter every call of the function in its module passes a `.shared()` op for (written in the call) starts the function's own check as a shared op (core caller_facts, both front ends)
"""A generator of launches over shared inputs, consumed by zip."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def launches(outs, x, y):
    for z in outs:
        yield add(z, x, y)


stream = sk.Device.cpu().new_stream()
outs = [tile.zeros((64,), f32).partition((32,)) for _ in range(2)]
results = sk.zip(*launches(outs, tile.ones((64,), f32).shared(), tile.ones((64,), f32).shared())).sync_on(stream)
assert len(results) == 2
