# fresh-expect: E0382 at line 69
# fresh-note: Origami crease relaxation; the energy report reads `stiff`, a handle taken from the sheet before the fold loop, although the first tile launch moved that tensor and only `sheet.stiffness` was rebound.
"""Relaxation of crease angles for a folded origami sheet (rigid-fold model)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CREASES = 256
TILE = 64


@tile.kernel
def fold_step(nxt: Partition[f32], angles: Tensor[f32], stiffness: Tensor[f32], target: f32, dt: f32) -> None:
    a = tile.load_like(angles, nxt)
    k = tile.load_like(stiffness, nxt)
    nxt.store(a + dt * k * (target - a))


@tile.kernel
def crease_energy(e: Partition[f32], angles: Tensor[f32], stiffness: Tensor[f32], target: f32) -> None:
    d = tile.load_like(angles, e) - target
    e.store(0.5 * tile.load_like(stiffness, e) * d * d)


@dataclass
class Sheet:
    angles: tile.Tensor
    stiffness: tile.Tensor

    @classmethod
    def random(cls, rng: np.random.Generator, stream: sk.Stream) -> "Sheet":
        angles = tile.from_numpy(rng.uniform(0.0, 0.3, CREASES).astype(np.float32))
        stiff = tile.from_numpy(rng.uniform(0.5, 2.0, CREASES).astype(np.float32))
        return cls(angles.sync_on(stream), stiff.sync_on(stream))


def relax(sheet: Sheet, stream: sk.Stream, target: float, steps: int) -> list[float]:
    residuals = []
    for _ in range(steps):
        out = tile.zeros((CREASES,), f32).partition((TILE,))
        nxt, _, sheet.stiffness, _, _ = fold_step(out, sheet.angles, sheet.stiffness, target, 0.2).sync_on(stream)
        sheet.angles = nxt.unpartition()
        residuals.append(float(np.abs(sheet.angles.to_numpy(stream) - target).max()))
    return residuals


def total_energy(angles: tile.Tensor, stiffness: tile.Tensor, stream: sk.Stream, target: float) -> float:
    e = tile.zeros((CREASES,), f32).partition((TILE,))
    e, _, _, _ = crease_energy(e, angles, stiffness, target).sync_on(stream)
    return float(e.unpartition().to_numpy(stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    sheet = Sheet.random(np.random.default_rng(2), stream)
    stiff = sheet.stiffness
    target = 1.2
    residuals = relax(sheet, stream, target, steps=5)
    print("residuals:", " ".join(f"{r:.3f}" for r in residuals))
    print(f"max stiffness {float(stiff.to_numpy(stream).max()):.2f}")
    print(f"energy left {total_energy(sheet.angles, sheet.stiffness, stream, target):.4f}")


if __name__ == "__main__":
    main()
