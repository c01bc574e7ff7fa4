# fresh-expect: E0382 at line 20
"""Unpartition each output in a loop, then read one of the old partition handles."""
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
print(pb.to_numpy(stream))  # BUG E0382
