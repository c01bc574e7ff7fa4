# fresh-expect: E0382 at line 32
"""A single-head attention block as a model class: scores, then a scaled projection with the same weights."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

D = 64


@tile.kernel
def gate(out: Partition[f32], x: Tensor[f32], w: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * tile.load_like(w, out))


class AttentionBlock:
    def __init__(self, weights: np.ndarray, stream) -> None:
        self.stream = stream
        self.w = tile.from_numpy(weights).sync_on(stream)

    @property
    def scale(self) -> float:
        return 1.0 / np.sqrt(D)

    def forward(self, x):
        scores = tile.zeros((D,), f32).partition((D,))
        scores, x, _ = gate(scores, x, self.w).sync_on(self.stream)  # weights handed back under `_`
        proj = tile.zeros((D,), f32).partition((D,))
        proj, scores, self.w = gate(proj, scores.unpartition(), self.w).sync_on(self.stream)
        return proj.unpartition()


if __name__ == "__main__":
    dev = sk.Device.cpu()
    s = dev.new_stream()
    block = AttentionBlock(np.ones(D, dtype=np.float32), s)
    x = tile.from_numpy(np.arange(D, dtype=np.float32))
    print(block.forward(x).to_numpy(s)[:4])
