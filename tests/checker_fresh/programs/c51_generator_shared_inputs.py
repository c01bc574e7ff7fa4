# fresh-expect: clean
# fresh-known-false-alarm: cli,mypy a parameter launched in a loop is moved per iteration even when every caller passes a `.shared()` op (the analysis is per function)
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
