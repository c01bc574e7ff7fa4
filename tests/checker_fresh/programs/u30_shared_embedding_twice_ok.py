# fresh-expect: clean
# (a `.shared()` op kept in an attribute by __init__, launched twice in another method: clean)
"""A shared embedding table read by a query lookup and a tied-weights lookup in one launch."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

V = 256
TILE = 64


@tile.kernel
def tied(out: Partition[f32], table: Tensor[f32], proj: Tensor[f32]) -> None:
    out.store(tile.load_like(table, out) * tile.load_like(proj, out))


class Encoder:
    def __init__(self, table: np.ndarray) -> None:
        self.table = tile.from_numpy(table).shared()

    def encode(self, stream):
        q, _, _ = tied(tile.zeros((V,), f32).partition((TILE,)), self.table, self.table).sync_on(stream)
        k, _, _ = tied(tile.zeros((V,), f32).partition((TILE,)), self.table, self.table).sync_on(stream)
        return q, k

    def table_norm(self, stream) -> float:
        t = self.table.sync_on(stream)
        return float(np.linalg.norm(t.to_numpy(stream)))


if __name__ == "__main__":
    dev = sk.Device.cpu()
    s = dev.new_stream()
    enc = Encoder(np.arange(V, dtype=np.float32))
    q, k = enc.encode(s)
    print(q.to_numpy(s)[:2], enc.table_norm(s))
