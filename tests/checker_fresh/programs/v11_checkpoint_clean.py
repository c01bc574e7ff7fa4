# fresh-expect: clean
# fresh-note: -
"""Checkpoint/restore helper around a tile update: snapshots use the handles sync_on gives back."""
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def sgd(w_new: Partition[f32], w: Tensor[f32], g: Tensor[f32]) -> None:
    w_new.store(tile.load_like(w, w_new) - tile.load_like(g, w_new))


class Checkpointer:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.saved: dict[str, np.ndarray] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        try:
            yield
        finally:
            self.saved.setdefault("phases", np.zeros(0))

    def save(self, name: str, t: Tensor[f32]) -> None:
        self.saved[name] = t.to_numpy(self.stream)

    def restore(self, name: str) -> Tensor[f32]:
        return tile.from_numpy(self.saved[name]).sync_on(self.stream)


stream = sk.Device.cpu().new_stream()
ckpt = Checkpointer(stream)
w = tile.ones((256,), f32).sync_on(stream)
g = tile.full((256,), 0.5, f32).sync_on(stream)
with ckpt.phase("warmup"):
    for step in range(3):
        target = tile.zeros((256,), f32).partition((64,))
        target, w, g = sgd(target, w, g).sync_on(stream)
        w = target.unpartition()
        ckpt.save(f"step{step}", w)
w = ckpt.restore("step1")
print(w.to_numpy(stream)[:2], sorted(ckpt.saved))
