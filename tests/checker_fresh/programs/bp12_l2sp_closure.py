# fresh-expect: clean
# fresh-note: The step closure declares `anchor` nonlocal and rebinds it to the tensor each sgd_l2sp launch hands back, so the next call passes a live anchor.
"""Fine-tuning with L2-SP regularisation (decay toward the pretrained weights) under a warmup + cosine LR schedule."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 64
N = 256

StepFn = Callable[[tile.Tensor, tile.Tensor, float], tile.Tensor]


@tile.kernel
def sgd_l2sp(w: Partition[f32], anchor: Tensor[f32], g: Tensor[f32], lr: f32, alpha: f32) -> None:
    cur = w.load()
    w.store(cur - (tile.load_like(g, w) + (cur - tile.load_like(anchor, w)) * alpha) * lr)


def warmup_cosine(base_lr: float, warmup: int, total: int, floor: float = 0.0) -> Iterator[float]:
    """An endless schedule: linear warmup, cosine decay to `floor` over `total` steps, then `floor`."""
    for step in itertools.count():
        if step < warmup:
            yield base_lr * (step + 1) / warmup
        elif step < total:
            t = (step - warmup) / max(1, total - warmup)
            yield floor + 0.5 * (base_lr - floor) * (1.0 + math.cos(math.pi * t))
        else:
            yield floor


def make_l2sp_step(pretrained: np.ndarray, stream: sk.Stream, alpha: float = 0.1) -> StepFn:
    anchor = tile.from_numpy(pretrained).sync_on(stream)

    def step(weights: tile.Tensor, grad: tile.Tensor, lr: float) -> tile.Tensor:
        nonlocal anchor  # the launch moves the anchor too: keep the handle it hands back for the next call
        w, anchor, _g, _lr, _alpha = sgd_l2sp(weights.partition((TILE,)), anchor, grad, lr, alpha).sync_on(stream)
        return w.unpartition()

    return step


def task_gradient(weights: np.ndarray, target: np.ndarray) -> np.ndarray:
    return (weights - target).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    pretrained = rng.standard_normal(N).astype(np.float32)
    target = (pretrained + rng.standard_normal(N) * 0.5).astype(np.float32)
    step = make_l2sp_step(pretrained, stream)
    weights = tile.from_numpy(pretrained.copy()).sync_on(stream)
    for it, lr in enumerate(itertools.islice(warmup_cosine(0.5, warmup=2, total=8), 8)):
        host = weights.to_numpy(stream)
        grad = tile.from_numpy(task_gradient(host, target))
        weights = step(weights, grad, lr)
        if it % 2 == 1:
            w = weights.to_numpy(stream)
            print(f"it {it}: lr={lr:.3f} task={float(np.abs(w - target).mean()):.3f} drift={float(np.abs(w - pretrained).mean()):.3f}")


if __name__ == "__main__":
    main()
