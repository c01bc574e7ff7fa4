# fresh-expect: clean
"""Unpartition each output in a loop and read the tensors."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def fill2(a: Partition[f32], b: Partition[f32]) -> None:
    a.store(tile.full(a.tile_shape, 1.0, f32))
    b.store(tile.full(b.tile_shape, 2.0, f32))


stream = sk.Device.cpu().new_stream()
pa, pb = fill2(tile.zeros((64,), f32).partition((16,)), tile.zeros((64,), f32).partition((16,))).sync_on(stream)
tensors = []
for p in (pa, pb):
    tensors.append(p.unpartition())
assert sum(float(t.to_numpy(stream).sum()) for t in tensors) == 192.0
