# fresh-expect: clean
"""Tied embeddings: one read-only table feeds both the input lookup and the output projection."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def mix(out: Partition[f32], table: Tensor[f32], other: Tensor[f32], w: f32) -> None:
    out.store(tile.load_like(table, out) * w + tile.load_like(other, out))


class TiedModel:
    def __init__(self, table: np.ndarray) -> None:
        self.table = tile.from_numpy(table).shared()
        self.n = table.shape[0]

    def embed(self, stream: sk.Stream):
        out = tile.zeros((self.n,), f32).partition((64,))
        out, _, _, _ = mix(out, self.table, self.table, 0.5).sync_on(stream)
        return out

    def project(self, stream: sk.Stream, hidden):
        out = tile.zeros((self.n,), f32).partition((64,))
        out, _, _, _ = mix(out, hidden, self.table, 2.0).sync_on(stream)
        return out


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    model = TiedModel(np.arange(256, dtype=np.float32))
    hidden = model.embed(stream).unpartition()
    logits = model.project(stream, hidden)
    again = model.embed(stream)
    print(logits.to_numpy(stream)[:3], again.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
