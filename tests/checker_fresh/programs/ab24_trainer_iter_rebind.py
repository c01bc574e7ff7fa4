# fresh-expect: clean
# Trainer.__iter__ unpartitions the handed-back weights into self.weights before yielding, so each step partitions a live tensor
"""SGD on a linear probe, written as an iterable trainer that yields one loss per step."""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

PARAMS = 384


@tile.kernel
def sgd_step(w: Partition[f32], grad: Tensor[f32], lr: f32) -> None:
    w.store(w.load() - lr * tile.load_like(grad, w))


class Trainer:
    def __init__(self, stream: sk.Stream, lr: float = 0.05, steps: int = 4) -> None:
        self.stream = stream
        self.lr = lr
        self.steps = steps
        self.weights = tile.from_numpy(np.ones(PARAMS, np.float32))
        self.target = np.linspace(-1.0, 1.0, PARAMS, dtype=np.float32)
        self.current = np.ones(PARAMS, np.float32)

    def gradient(self) -> np.ndarray:
        return (2.0 * (self.current - self.target)).astype(np.float32)

    def __iter__(self) -> Iterator[float]:
        for _ in range(self.steps):
            grad = tile.from_numpy(self.gradient())
            w_part, grad, _ = sgd_step(self.weights.partition((128,)), grad, self.lr).sync_on(self.stream)
            self.current = w_part.to_numpy(self.stream)
            self.weights = w_part.unpartition()
            yield float(np.square(self.current - self.target).mean())


def main() -> None:
    stream = sk.Device.default().new_stream()
    trainer = Trainer(stream)
    for step, loss in enumerate(trainer, start=1):
        print(f"step {step}: mse {loss:.5f}")


if __name__ == "__main__":
    main()
