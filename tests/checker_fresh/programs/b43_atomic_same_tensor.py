# fresh-expect: E0382 at line 21
"""A histogram kernel with an atomic output given the same tensor as its input."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import i32
from safekernels.tile import AtomicTensor, Partition, Tensor


@tile.kernel
def histogram(done: Partition[i32], ids: Tensor[i32], counts: AtomicTensor[i32]) -> None:
    t = tile.load_like(ids, done)
    tile.atomic_add(counts, t, tile.full(done.tile_shape, 1, i32))
    done.store(t)


stream = sk.Device.cpu().new_stream()
ids = tile.from_numpy(np.arange(16, dtype=np.int32) % 4).sync_on(stream)
counts = ids
op = histogram(tile.zeros((16,), i32).partition((8,)), ids, counts)  # BUG E0382
op.sync_on(stream)
