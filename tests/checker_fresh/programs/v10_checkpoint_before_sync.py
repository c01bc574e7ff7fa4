# fresh-expect: E0382 at line 18
# fresh-note: -
"""Checkpoint helper: snapshot the weights to host arrays every few steps of a tile update."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def sgd(w_new: Partition[f32], w: Tensor[f32], g: Tensor[f32]) -> None:
    w_new.store(tile.load_like(w, w_new) - tile.load_like(g, w_new))


def save_checkpoint(store: dict[int, np.ndarray], step: int, weights: Tensor[f32], stream: sk.Stream) -> None:
    store[step] = weights.to_numpy(stream)


def train(steps: int, every: int) -> dict[int, np.ndarray]:
    stream = sk.Device.cpu().new_stream()
    checkpoints: dict[int, np.ndarray] = {}
    w = tile.ones((512,), f32).sync_on(stream)
    g = tile.full((512,), 0.125, f32).sync_on(stream)
    for step in range(steps):
        target = tile.zeros((512,), f32).partition((128,))
        op = sgd(target, w, g)
        if step % every == 0:
            save_checkpoint(checkpoints, step, w, stream)
        target, w, g = op.sync_on(stream)
        w = target.unpartition()
    return checkpoints


print(sorted(train(4, 2)))
