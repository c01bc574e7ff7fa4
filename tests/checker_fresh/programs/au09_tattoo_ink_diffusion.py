# fresh-expect: W0003 at line 39
# fresh-note: Tattoo ink diffusion in dermis layers; when the requested coefficient is unstable, `simulate` clamps it and rebuilds the tile op, dropping the first op that was built and never run.
"""Long-term pigment spread of tattoo ink through the dermis, one layer per row."""

from __future__ import annotations

import logging

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

LAYERS, WIDTH = 8, 64
log = logging.getLogger("ink")


@tile.kernel
def diffuse(out: Partition[f32], ink: Tensor[f32], left: Tensor[f32], right: Tensor[f32], coeff: f32) -> None:
    c = tile.load_like(ink, out)
    lap = tile.load_like(left, out) + tile.load_like(right, out) - 2.0 * c
    out.store(c + coeff * lap)


class InkModel:
    max_stable = 0.5

    def __init__(self, pattern: np.ndarray, stream: sk.Stream) -> None:
        self.ink = pattern.astype(np.float32)
        self.stream = stream
        self.history: list[float] = []

    def build(self, coeff: float) -> sk.DeviceOp:
        left = np.roll(self.ink, 1, axis=1)
        right = np.roll(self.ink, -1, axis=1)
        out = tile.zeros((LAYERS, WIDTH), f32).partition((LAYERS, 32))
        return diffuse(out, tile.from_numpy(self.ink), tile.from_numpy(left), tile.from_numpy(right), coeff)

    def simulate(self, years: int, coeff: float) -> np.ndarray:
        for _ in range(years):
            op = self.build(coeff)
            if coeff > self.max_stable:
                log.warning("coefficient %.2f is unstable, clamping", coeff)
                coeff = self.max_stable
                op = self.build(coeff)
            out, *_ = op.sync_on(self.stream)
            self.ink = out.unpartition().to_numpy(self.stream)
            self.history.append(float(self.ink.max()))
        return self.ink


def line_pattern() -> np.ndarray:
    pattern = np.zeros((LAYERS, WIDTH), np.float32)
    pattern[:3, 20:28] = 1.0
    pattern[:2, 40:44] = 0.6
    return pattern


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    results = {}
    for label, coeff in {"fine-line": 0.2, "blackwork": 0.7}.items():
        model = InkModel(line_pattern(), stream)
        final = model.simulate(years=4, coeff=coeff)
        results[label] = (final[:3].sum(axis=0) > 0.2).sum()
        print(label, "peak by year:", ", ".join(f"{p:.2f}" for p in model.history))
    print("visible width (cells):", results)


if __name__ == "__main__":
    main()
