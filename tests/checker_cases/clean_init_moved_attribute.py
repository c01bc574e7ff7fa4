"""The clean twin of `e0382_init_moved_attribute`: the `.shared()` op `__init__` stores (`self.table`) is read
twice by one launch in another method (a shared op is never moved by its consumers), and the object `__init__`
moved (`self.raw`) is not used again."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 128


@tile.kernel
def tied(out: Partition[f32], table: Tensor[f32], proj: Tensor[f32]) -> None:
    out.store(tile.load_like(table, out) * tile.load_like(proj, out))


class Encoder:
    def __init__(self, table: np.ndarray) -> None:
        self.raw = tile.from_numpy(table)
        self.table = self.raw.shared()

    def encode(self, stream: sk.Stream) -> tile.Tensor[f32]:
        q, _, _ = tied(tile.zeros((N,), f32).partition((64,)), self.table, self.table).sync_on(stream)
        k, _, _ = tied(tile.zeros((N,), f32).partition((64,)), self.table, self.table).sync_on(stream)
        return q if k is None else k

    def uploaded(self, stream: sk.Stream) -> np.ndarray:
        table = self.table.sync_on(stream)
        return table.to_numpy(stream)


if __name__ == "__main__":
    s = sk.Device.cpu().new_stream()
    enc = Encoder(np.arange(N, dtype=np.float32))
    print(enc.encode(s).to_numpy(s)[:2], enc.uploaded(s)[:2])
