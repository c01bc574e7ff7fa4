# fresh-expect: E0382 at line 53
# idiom: functools.reduce folding micro-batch gradients into a nested dataclass's tensor
"""Gradient accumulation for one optimizer step.

Each micro-batch produces a gradient; `functools.reduce` folds them into the parameter's
gradient tensor, then the step clips by the global norm and applies SGD on the host.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SIZE = 512
TILE = 64
MICRO_BATCHES = 4


@tile.kernel
def accumulate(acc: Partition[f32], g: Tensor[f32]) -> None:
    acc.store(acc.load() + tile.load_like(g, acc))


@dataclass
class Grad:
    values: tile.Tensor
    steps: int = 0


@dataclass
class Param:
    name: str
    weight: np.ndarray
    grad: Grad
    history: list[float] = field(default_factory=list)


def fold(stream: sk.Stream, acc: tile.Tensor, micro: np.ndarray) -> tile.Tensor:
    part, _ = accumulate(acc.partition((TILE,)), tile.from_numpy(micro)).sync_on(stream)
    return part.unpartition()


def step(param: Param, micros: list[np.ndarray], stream: sk.Stream, lr: float = 0.1) -> float:
    summed = functools.reduce(functools.partial(fold, stream), micros, param.grad.values)
    param.grad.steps += len(micros)
    norm = float(np.linalg.norm(param.grad.values.to_numpy(stream)))
    scale = min(1.0, 5.0 / max(norm, 1e-6)) / len(micros)
    param.weight -= lr * scale * summed.to_numpy(stream)
    param.history.append(norm)
    return norm


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(11)
    zero = tile.zeros((SIZE,), f32).sync_on(stream)
    param = Param("dense.w", rng.standard_normal(SIZE).astype(np.float32), Grad(zero))
    micros = [rng.standard_normal(SIZE).astype(np.float32) for _ in range(MICRO_BATCHES)]
    norm = step(param, micros, stream)
    print(f"{param.name}: grad norm {norm:.3f}, weight mean {param.weight.mean():+.4f}")


if __name__ == "__main__":
    main()
