# fresh-expect: clean
# fresh-note: Cosine annealing with warm restarts drives a tile-kernel SGD update; steps whose learning rate is zero are skipped before any op is built, and every built op is run with sync_on.
"""Cosine annealing with warm restarts (torch.optim.lr_scheduler.CosineAnnealingWarmRestarts) on tile kernels.

The schedule is a generator of learning rates; each step builds the update `w - lr * grad` as one tile
launch and runs it at once.  The restart period doubles after each cycle (T_mult = 2).
"""

from __future__ import annotations

import itertools
import math
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 2048
TILE = 256


@tile.kernel
def sgd_update(out: Partition[f32], w: Tensor[f32], grad: Tensor[f32], lr: f32) -> None:
    out.store(tile.load_like(w, out) - tile.load_like(grad, out) * lr)


def cosine_restarts(lr_max: float, lr_min: float, t0: int, t_mult: int) -> Iterator[float]:
    period = t0
    while True:
        for t in range(period):
            yield lr_min + 0.5 * (lr_max - lr_min) * (1.0 + math.cos(math.pi * t / period))
        period *= t_mult


class Trainer:
    def __init__(self, stream: sk.Stream, mode: str) -> None:
        self.stream = stream
        self.mode = mode
        rng = np.random.default_rng(21)
        self.w = rng.standard_normal(N).astype(np.float32)
        self.applied = 0

    def grad(self) -> np.ndarray:
        match self.mode:
            case "l2":
                return 2.0 * self.w
            case "l1":
                return np.sign(self.w).astype(np.float32)
            case other:
                raise ValueError(f"unknown loss {other}")

    def step(self, lr: float) -> None:
        if lr <= 0.0:
            return
        out = tile.zeros((N,), f32).partition((TILE,))
        op = sgd_update(out, tile.from_numpy(self.w), tile.from_numpy(self.grad()), lr)
        out, _w, _g, _lr = op.sync_on(self.stream)
        self.w = out.unpartition().to_numpy(self.stream)
        self.applied += 1

    def loss(self) -> float:
        return float(np.mean(self.w ** 2)) if self.mode == "l2" else float(np.mean(np.abs(self.w)))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    results = {}
    for mode in ("l2", "l1"):
        trainer = Trainer(stream, mode)
        schedule = cosine_restarts(lr_max=0.3, lr_min=0.0, t0=2, t_mult=2)
        lrs = list(itertools.islice(schedule, 6))
        for lr in lrs:
            trainer.step(lr)
        results[mode] = (trainer.applied, round(trainer.loss(), 4))
    print("cosine restarts (applied steps, final loss):", results)


if __name__ == "__main__":
    main()
