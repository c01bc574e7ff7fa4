# fresh-expect: W0003 at line 21
"""An evaluation helper builds the loss op, but the quiet path returns before running it."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def squared_error(err: Partition[f32], pred: Tensor[f32], target: Tensor[f32]) -> None:
    d = tile.load_like(pred, err) - tile.load_like(target, err)
    err.store(d * d)


def evaluate(pred: np.ndarray, target: np.ndarray, stream, verbose: bool) -> float:
    n = pred.size
    err = tile.zeros((n,), f32).partition((256,))
    op = squared_error(err, tile.from_numpy(pred), tile.from_numpy(target))
    if not verbose:
        return 0.0  # BUG: `op` is dropped, the kernel never runs
    err, _, _ = op.sync_on(stream)
    loss = float(err.unpartition().to_numpy(stream).mean())
    print(f"eval loss {loss:.4f}")
    return loss


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(3)
    target = rng.standard_normal(1024).astype(np.float32)
    for epoch in range(2):
        pred = target + np.float32(0.1 * (epoch + 1))
        evaluate(pred, target, stream, verbose=epoch == 1)


if __name__ == "__main__":
    main()
