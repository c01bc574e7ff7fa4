# fresh-expect: clean
"""A training loop whose step function takes the state tensors and hands them back."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def sgd_step(weights: Partition[f32], grads: Tensor[f32], lr: f32) -> None:
    weights.store(weights.load() - tile.load_like(grads, weights) * lr)


def make_grads(step: int, n: int):
    return tile.from_numpy(np.full(n, 0.1 * (step + 1), dtype=np.float32))


def train_step(stream: sk.Stream, weights, grads, lr: float):
    weights, grads, _ = sgd_step(weights, grads, lr).sync_on(stream)
    return weights, grads


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    n = 512
    weights = tile.ones((n,), f32).partition((128,))
    history = []
    for step in range(3):
        grads = make_grads(step, n)
        weights, grads = train_step(stream, weights, grads, 0.5)
        history.append(float(grads.to_numpy(stream)[0]))
    final = weights.unpartition()
    print(history, final.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
