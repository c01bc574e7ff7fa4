# fresh-expect: E0382 at line 25
"""try/finally prints the input in the cleanup, after partition moved it."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def double(z: Partition[f32]) -> None:
    z.store(z.load() * 2.0)


def run(t, stream):
    parts = t.partition((32,))
    try:
        (parts,) = double(parts).sync_on(stream)
        return parts.unpartition()
    finally:
        print("input was", t.to_numpy(stream)[:2])  # BUG E0382


stream = sk.Device.cpu().new_stream()
run(tile.arange(64, f32).sync_on(stream), stream)
