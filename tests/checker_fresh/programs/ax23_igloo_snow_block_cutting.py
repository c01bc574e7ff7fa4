# fresh-expect: clean
# fresh-note: Grades igloo snow blocks with a lazy chain (launch, .first(), .unpartition(), .then() into a second launch) and re-partitions the compacted field with another tile shape; each value is consumed exactly once and taken back from sync_on.
"""Igloo building: tramp a snow field, estimate block strength, and pick where to cut the blocks."""
from __future__ import annotations

import abc
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ROWS, COLS = 32, 32


@tile.kernel
def compact(field: Partition[f32], density: Tensor[f32], pressure: f32) -> None:
    d = tile.load_like(density, field)
    field.store(tile.minimum(d * (1.0 + pressure), 0.55))


@tile.kernel
def strength(out: Partition[f32], density: Tensor[f32]) -> None:
    d = tile.load_like(density, out)
    out.store(d * d * 3.2)


class SnowPack(abc.ABC):
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    @property
    @abc.abstractmethod
    def base_density(self) -> float: ...

    @property
    def tramp_pressure(self) -> float:
        return 0.35

    def density_grid(self) -> np.ndarray:
        noise = self.rng.normal(0.0, 0.03, (ROWS, COLS))
        return (self.base_density + noise).astype(np.float32)

    @classmethod
    def from_report(cls, report: str, seed: int) -> "SnowPack":
        return {"slab": WindSlab, "powder": Powder}[report](seed)


class WindSlab(SnowPack):
    @property
    def base_density(self) -> float:
        return 0.38


class Powder(SnowPack):
    @property
    def base_density(self) -> float:
        return 0.12

    @property
    def tramp_pressure(self) -> float:
        return super().tramp_pressure * 2.5


@dataclass
class CutPlan:
    pack: str
    usable_rows: list[int]
    mean_strength: float


def grade(pack: SnowPack, stream: sk.Stream) -> tuple[Partition[f32], Tensor[f32]]:
    field = tile.zeros((ROWS, COLS), f32).partition((8, 8))
    compacted = compact(field, tile.from_numpy(pack.density_grid()), pack.tramp_pressure).first().unpartition()
    graded = compacted.then(lambda dens: strength(tile.zeros((ROWS, COLS), f32).partition((16, COLS)), dens))
    out, dens = graded.sync_on(stream)
    return out, dens


def plan_cuts(pack: SnowPack, stream: sk.Stream, min_strength: float = 0.3) -> CutPlan:
    out, dens = grade(pack, stream)
    s = out.unpartition().to_numpy(stream)
    # re-tile the compacted field in rows to see which rows hold together
    rows = dens.partition((1, COLS))
    per_row = rows.to_numpy(stream).mean(axis=1)
    usable = [r for r in range(ROWS) if s[r].min() >= min_strength and per_row[r] > 0.2]
    return CutPlan(type(pack).__name__, usable, float(s.mean()))


def main() -> None:
    stream = sk.Device.default().new_stream()
    for report, seed in (("slab", 3), ("powder", 4)):
        plan = plan_cuts(SnowPack.from_report(report, seed), stream)
        rows = plan.usable_rows[:6]
        print(f"{plan.pack:8s} mean strength {plan.mean_strength:.3f} MPa, {len(plan.usable_rows)} usable rows, first {rows}")


if __name__ == "__main__":
    main()
