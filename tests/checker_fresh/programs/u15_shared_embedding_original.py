# fresh-expect: E0382 at line 32
# (the `.shared()` receiver moved in __init__, synced in a later method)
"""A token embedding table shared read-only by two lookups (query and key paths) of a small encoder."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

V = 256
TILE = 64


@tile.kernel
def lookup(out: Partition[f32], table: Tensor[f32]) -> None:
    out.store(tile.load_like(table, out) + 1.0)


class Encoder:
    def __init__(self, table: np.ndarray) -> None:
        self.raw = tile.from_numpy(table)
        self.table = self.raw.shared()

    def encode(self, stream) -> tuple:
        q, _ = lookup(tile.zeros((V,), f32).partition((TILE,)), self.table).sync_on(stream)
        k, _ = lookup(tile.zeros((V,), f32).partition((TILE,)), self.table).sync_on(stream)
        return q, k

    def table_norm(self, stream) -> float:
        t = self.raw.sync_on(stream)  # the table as uploaded
        return float(np.linalg.norm(t.to_numpy(stream)))


if __name__ == "__main__":
    dev = sk.Device.cpu()
    s = dev.new_stream()
    enc = Encoder(np.arange(V, dtype=np.float32))
    q, k = enc.encode(s)
    print(q.to_numpy(s)[:2], enc.table_norm(s))
