# fresh-expect: W0003 at line 76
# fresh-note: Gradient accumulation with a dynamic fp16 loss scale; `finish_window` builds the `unscale` tile launch before checking for overflow, and the overflow path returns early and drops that op unrun.
"""Gradient accumulation over micro-batches with dynamic loss scaling (fp16-style), no torch.

Micro-batch gradients arrive scaled by the loss scale and rounded to fp16 on the host; a tile kernel
accumulates them in f32.  At the end of each accumulation window the sum is unscaled and averaged by a
second tile kernel, unless one of the micro-batches overflowed: then the window is skipped, the
accumulator is cleared and the scale is halved, as torch.cuda.amp.GradScaler does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256
T = 64


@tile.kernel
def accumulate(acc: Partition[f32], g: Tensor[f32]) -> None:
    acc.store(acc.load() + tile.load_like(g, acc))


@tile.kernel
def unscale(out: Partition[f32], acc: Tensor[f32], factor: f32) -> None:
    out.store(tile.load_like(acc, out) * factor)


@dataclass
class ScalerState:
    scale: float = 2.0**16
    growth_interval: int = 2
    good_windows: int = 0
    history: list[float] = field(default_factory=list)

    def on_overflow(self) -> None:
        self.scale /= 2.0
        self.good_windows = 0
        self.history.append(self.scale)

    def on_success(self) -> None:
        self.good_windows += 1
        if self.good_windows % self.growth_interval == 0:
            self.scale *= 2.0
        self.history.append(self.scale)


class Accumulator:
    def __init__(self, stream: sk.Stream, micro_batches: int) -> None:
        self.stream = stream
        self.micro_batches = micro_batches
        self.scaler = ScalerState()
        self.acc = self._fresh()
        self.overflow = False

    def _fresh(self) -> Partition[f32]:
        return tile.zeros((N,), f32).partition((T,)).sync_on(self.stream)

    def add(self, grad: np.ndarray) -> "Accumulator":
        scaled = (grad * self.scaler.scale).astype(np.float16)
        if not np.isfinite(scaled).all():
            self.overflow = True
        self.acc, _g = accumulate(self.acc, tile.from_numpy(scaled.astype(np.float32))).sync_on(self.stream)
        return self

    def finish_window(self) -> Optional[np.ndarray]:
        factor = 1.0 / (self.scaler.scale * self.micro_batches)
        op = unscale(tile.zeros((N,), f32).partition((T,)), self.acc.unpartition(), factor)
        if self.overflow:
            self.scaler.on_overflow()
            self.acc = self._fresh()
            self.overflow = False
            return None
        grads, _acc, _factor = op.sync_on(self.stream)
        self.scaler.on_success()
        self.acc = self._fresh()
        return grads.unpartition().to_numpy(self.stream)


def micro_batch_grads(rng: np.random.Generator, windows: int, micro: int) -> Iterator[tuple[int, np.ndarray]]:
    for w in range(windows):
        for _ in range(micro):
            g = rng.standard_normal(N).astype(np.float32) * 0.01
            if w == 0:
                g[3] = 4.0  # a loss spike: 4 * 2**16 does not fit fp16
            yield w, g


def main() -> None:
    np.seterr(over="ignore")  # fp16 overflow is expected and handled by the loss scaler
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(2)
    micro, windows = 3, 3
    accum = Accumulator(stream, micro)
    weights = np.zeros(N, np.float32)
    lr = 0.1
    current = 0
    seen = 0
    for window, grad in micro_batch_grads(rng, windows, micro):
        accum.add(grad)
        seen += 1
        if seen < micro:
            continue
        seen = 0
        match accum.finish_window():
            case None:
                print(f"window {window}: overflow, skipped (scale now {accum.scaler.scale:g})")
            case np.ndarray() as avg:
                weights -= lr * avg
                current += 1
                print(f"window {window}: applied, |w| = {np.linalg.norm(weights):.5f}")
    print(f"{current} windows applied, scale history {accum.scaler.history}")


if __name__ == "__main__":
    main()
