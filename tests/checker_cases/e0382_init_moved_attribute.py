"""`__init__` moves an attribute's object (`self.table = self.raw.shared()` consumes `self.raw`) and another method
uses it: every method starts with the attributes `__init__` moved on every path (nothing else in the class binds
`raw`), so the later `self.raw.sync_on(...)` is a use after move (the runtime raises there)."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 128


@tile.kernel
def lookup(out: Partition[f32], table: Tensor[f32]) -> None:
    out.store(tile.load_like(table, out) + 1.0)


class Encoder:
    def __init__(self, table: np.ndarray) -> None:
        self.raw = tile.from_numpy(table)
        self.table = self.raw.shared()

    def encode(self, stream: sk.Stream) -> tile.Tensor[f32]:
        q, _ = lookup(tile.zeros((N,), f32).partition((64,)), self.table).sync_on(stream)
        return q

    def uploaded(self, stream: sk.Stream) -> np.ndarray:
        raw = self.raw.sync_on(stream)  # expect: E0382
        return raw.to_numpy(stream)


if __name__ == "__main__":
    s = sk.Device.cpu().new_stream()
    enc = Encoder(np.arange(N, dtype=np.float32))
    print(enc.encode(s).to_numpy(s)[:2], enc.uploaded(s)[:2])
