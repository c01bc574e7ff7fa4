# fresh-expect: clean
"""Gradient accumulation over micro-batches, taking the accumulator back from each launch before the next."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def accumulate(acc: Partition[f32], grad: Tensor[f32], weight: f32) -> None:
    acc.store(acc.load() + tile.load_like(grad, acc) * weight)


def micro_grads(step: int, n: int, micro: int) -> list:
    rng = np.random.default_rng(step)
    return [rng.standard_normal(n).astype(np.float32) for _ in range(micro)]


def accumulate_step(grads: list, n: int, stream) -> np.ndarray:
    acc = tile.zeros((n,), f32).partition((256,))
    for g in grads:
        op = accumulate(acc, tile.from_numpy(g), 1.0 / len(grads))
        acc, _grad, _weight = op.sync_on(stream)
    return acc.unpartition().to_numpy(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    for step in range(2):
        total = accumulate_step(micro_grads(step, 1024, micro=4), 1024, stream)
        print(step, float(np.abs(total).mean()))


if __name__ == "__main__":
    main()
