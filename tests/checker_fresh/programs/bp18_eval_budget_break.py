# fresh-expect: clean
# fresh-known-false-alarm: cli,mypy false E0382 at 51: the generator method's parameter is annotated `sk.DeviceOp` (an owned op, which its loop's launches move) while its callers pass a `.shared()` op; `SharedDeviceOp` says so
# fresh-note: The evaluation loop takes at most max_batches items with itertools.islice, so the generator never builds an op past the budget and every yielded launch is synced.
"""Periodic validation with a batch budget: a generator method yields one lazy error launch per batch."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 32
BATCH = 64
FEATURES = 64


@tile.kernel
def linear_sq_err(err: Partition[f32], w: Tensor[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    d = tile.load_like(w, err) * tile.load_like(x, err) - tile.load_like(y, err)
    err.store(d * d)


@dataclass
class ValidationSet:
    xs: np.ndarray
    ys: np.ndarray

    def __len__(self) -> int:
        return len(self.xs)

    def __iter__(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        yield from zip(self.xs, self.ys)


class Evaluator:
    def __init__(self, data: ValidationSet, stream: sk.Stream) -> None:
        self.data = data
        self.stream = stream

    def batch_errors(self, weights: sk.DeviceOp) -> Iterator[tuple[int, sk.DeviceOp]]:
        """One lazy launch per batch; `weights` is a shared op, read by every launch."""
        for i, (x, y) in enumerate(self.data):
            err = tile.zeros((FEATURES,), f32).partition((TILE,))
            yield i, linear_sq_err(err, weights, tile.from_numpy(x), tile.from_numpy(y))

    def evaluate(self, w: np.ndarray, max_batches: int) -> float:
        weights = tile.from_numpy(w).shared()
        total, seen = 0.0, 0
        for _i, op in itertools.islice(self.batch_errors(weights), max_batches):  # builds no op past the budget
            err, _w, _x, _y = op.sync_on(self.stream)
            total += float(err.unpartition().to_numpy(self.stream).sum())
            seen += 1
        return total / max(1, seen * FEATURES)


def make_data(rng: np.random.Generator, true_w: np.ndarray, batches: int) -> ValidationSet:
    xs = rng.standard_normal((batches, FEATURES)).astype(np.float32)
    ys = (xs * true_w + 0.01 * rng.standard_normal((batches, FEATURES))).astype(np.float32)
    return ValidationSet(xs, ys)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    true_w = rng.standard_normal(FEATURES).astype(np.float32)
    ev = Evaluator(make_data(rng, true_w, batches=6), stream)
    w = np.zeros(FEATURES, np.float32)
    for epoch in range(3):
        w = (w + 0.5 * (true_w - w)).astype(np.float32)  # stand-in for an epoch of training
        print(f"epoch {epoch}: val mse = {ev.evaluate(w, max_batches=3):.4f}")


if __name__ == "__main__":
    main()
