# fresh-expect: clean
"""Nested loops with break: the partition is taken back after each launch."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


stream = sk.Device.cpu().new_stream()
z = tile.zeros((64,), f32).partition((32,))
total = 0
for outer in range(2):
    for inner in range(3):
        z, _, _ = add(z, tile.ones((64,), f32), tile.ones((64,), f32)).sync_on(stream)
        total += 1
        break
assert total == 2
