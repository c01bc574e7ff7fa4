# fresh-expect: E0382 at line 60
# fresh-known-false-alarm: cli,mypy false E0382 at 62: with one step the loop would exit and the return would read the moved `g` (a real use after move on that input); the program runs 40 steps and the runtime stops at line 60
"""Fit per-sensor gains with plain gradient descent, in the tile track.

Each of N sensors reports a raw reading x[i]; the reference instrument says the true value is y[i].
The model is a per-sensor gain w[i] (pred = w * x) fitted by minimizing the squared error.  Each step
computes the gradient into a reusable gradient buffer, then applies the SGD update to the weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 256


@tile.kernel
def gain_gradient(g: Partition[f32], w: Tensor[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tw = tile.load_like(w, g)
    tx = tile.load_like(x, g)
    ty = tile.load_like(y, g)
    g.store((tw * tx - ty) * tx)


@tile.kernel
def sgd_update(w: Partition[f32], g: Tensor[f32], lr: f32) -> None:
    w.store(w.load() - tile.load_like(g, w) * lr)


@dataclass
class Calibration:
    weights: Partition[f32]
    grad: Partition[f32]
    raw: Tensor[f32]
    truth: Tensor[f32]


def make_problem(n: int, stream: sk.Stream, seed: int = 0) -> tuple[Calibration, np.ndarray]:
    rng = np.random.default_rng(seed)
    gains = rng.uniform(0.5, 1.5, n).astype(np.float32)
    raw = rng.uniform(1.0, 2.0, n).astype(np.float32)
    ones = tile.ones((n,), f32).partition((TILE,)).sync_on(stream)
    grad = tile.zeros((n,), f32).partition((TILE,)).sync_on(stream)
    x = tile.from_numpy(raw).sync_on(stream)
    y = tile.from_numpy(raw * gains).sync_on(stream)
    return Calibration(ones, grad, x, y), gains


def train(cal: Calibration, steps: int, lr: float, stream: sk.Stream) -> Calibration:
    w_part, g, x, y = cal.weights, cal.grad, cal.raw, cal.truth
    for _ in range(steps):
        w = w_part.unpartition()
        g, w, x, y = gain_gradient(g, w, x, y).sync_on(stream)
        w_part, _, _ = sgd_update(w.partition((TILE,)), g.unpartition(), lr).sync_on(stream)
    return Calibration(w_part, g, x, y)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    cal, gains = make_problem(1000, stream)
    cal = train(cal, steps=40, lr=0.3, stream=stream)
    fitted = cal.weights.unpartition().to_numpy(stream)
    err = float(np.max(np.abs(fitted - gains)))
    print(f"max gain error after training: {err:.2e}")


if __name__ == "__main__":
    main()
