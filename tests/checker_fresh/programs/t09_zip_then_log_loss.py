# fresh-expect: E0382 at line 31
"""Loss and regulariser ops are zipped to run as one chain, then the loss op is also synced for logging."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def squared_error(err: Partition[f32], pred: Tensor[f32], target: Tensor[f32]) -> None:
    d = tile.load_like(pred, err) - tile.load_like(target, err)
    err.store(d * d)


@tile.kernel
def weight_decay(pen: Partition[f32], w: Tensor[f32], lam: f32) -> None:
    v = tile.load_like(w, pen)
    pen.store(v * v * lam)


def train_step(pred: np.ndarray, target: np.ndarray, weights: np.ndarray, stream, log: list) -> float:
    err = tile.zeros((pred.size,), f32).partition((256,))
    pen = tile.zeros((weights.size,), f32).partition((256,))
    loss_op = squared_error(err, tile.from_numpy(pred), tile.from_numpy(target))
    reg_op = weight_decay(pen, tile.from_numpy(weights), 1e-2)
    both = sk.zip(loss_op, reg_op)
    if log is not None:
        (err_early, _, _) = loss_op.sync_on(stream)  # BUG: loss_op was moved into the zip
        log.append(float(err_early.unpartition().to_numpy(stream).mean()))
    (err, _, _), (pen, _, _) = both.sync_on(stream)
    return float(err.unpartition().to_numpy(stream).mean() + pen.unpartition().to_numpy(stream).sum())


if __name__ == "__main__":
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(1)
    history: list = []
    for _ in range(2):
        p, t, w = (rng.standard_normal(512).astype(np.float32) for _ in range(3))
        print(train_step(p, t, w, stream, history))
