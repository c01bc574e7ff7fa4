# fresh-expect: E0382 at line 43
# fresh-note: Exoplanet transit stacking: a tile kernel folds light-curve chunks from a deque into a running profile; bug: `TransitStacker.add` discards the handed-back weights tensor (`self.profile, _, _ = fold(...)`), so `self.weights` stays the moved handle and the second chunk's launch at line 43 uses it after the move.
"""Exoplanet transit search: stack phase-folded light-curve chunks into one weighted transit profile.

Light-curve chunks arrive from the photometry pipeline in a queue; each chunk is folded into a running
weighted sum on the device by a tile kernel.  The per-cadence quality weights are read by every fold.
"""

from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BINS = 2048
TILE = 256


@tile.kernel
def fold(acc: Partition[f32], flux: Tensor[f32], weights: Tensor[f32]) -> None:
    depth = 1.0 - tile.load_like(flux, acc)
    acc.store(acc.load() + depth * tile.load_like(weights, acc))


class TransitStacker:
    """Keeps the running weighted depth profile of one target star."""

    def __init__(self, star: str, weights: np.ndarray, stream: sk.Stream) -> None:
        self.star = star
        self.stream = stream
        self.weights = tile.from_numpy(weights.astype(np.float32)).sync_on(stream)
        self.profile = tile.zeros((BINS,), f32).partition((TILE,)).sync_on(stream)
        self.chunks = 0

    def add(self, flux: np.ndarray) -> None:
        chunk = tile.from_numpy(flux.astype(np.float32))
        # the weights are only read by the kernel, so the handed-back copy is not needed
        self.profile, _, _ = fold(self.profile, chunk, self.weights).sync_on(self.stream)
        self.chunks += 1

    def depth_ppm(self) -> np.ndarray:
        total = self.profile.to_numpy(self.stream)
        return 1e6 * total / max(self.chunks, 1)


def light_curve_chunks(rng: np.random.Generator, count: int) -> deque[np.ndarray]:
    phase = np.linspace(-0.5, 0.5, BINS)
    transit = np.where(np.abs(phase) < 0.02, 8e-3, 0.0)
    queue: deque[np.ndarray] = deque()
    for _ in range(count):
        queue.append(1.0 - transit + rng.normal(0.0, 2e-3, BINS))
    return queue


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(42)
    weights = np.clip(rng.normal(1.0, 0.1, BINS), 0.5, 1.5)
    stacker = TransitStacker("TOI-1231", weights, stream)
    pending = light_curve_chunks(rng, 6)
    while pending:
        stacker.add(pending.popleft())
    depth = stacker.depth_ppm()
    centre = depth[BINS // 2 - 20 : BINS // 2 + 20].mean()
    wings = np.concatenate([depth[:200], depth[-200:]]).mean()
    print(f"{stacker.star}: {stacker.chunks} chunks, in-transit depth {centre:.0f} ppm, wings {wings:.0f} ppm")


if __name__ == "__main__":
    main()
