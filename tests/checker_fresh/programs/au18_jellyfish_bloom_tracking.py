# fresh-expect: clean
# fresh-note: Jellyfish bloom tracking along a coast; per-transect tile density ops are built by a generator, zipped into one op and run, and every tensor is taken back from the zipped value before the next survey.
"""Bloom density and drift estimates from aerial jellyfish transects."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = 96


@tile.kernel
def density(out: Partition[f32], counts: Tensor[f32], area_km2: f32) -> None:
    out.store(tile.load_like(counts, out) / area_km2)


@tile.kernel
def drift(pos: Partition[f32], current: Tensor[f32], wind: Tensor[f32], hours: f32) -> None:
    pos.store(pos.load() + hours * (tile.load_like(current, pos) + 0.03 * tile.load_like(wind, pos)))


@dataclass
class Transect:
    name: str
    counts: tile.Tensor
    area_km2: float


def density_ops(transects: list[Transect]):
    for t in transects:
        yield density(tile.zeros((CELLS,), f32).partition((32,)), t.counts, t.area_km2)


def survey(transects: list[Transect], stream: sk.Stream) -> dict[str, float]:
    values = sk.zip(*density_ops(transects)).sync_on(stream)
    peaks = {}
    for t, (out, counts, _) in zip(transects, values):
        t.counts = counts
        peaks[t.name] = float(out.unpartition().to_numpy(stream).max())
    return peaks


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(16)
    transects = [
        Transect(name, tile.from_numpy(rng.poisson(lam, CELLS).astype(np.float32)).sync_on(stream), area)
        for name, lam, area in (("north-bay", 4.0, 0.5), ("harbour", 9.0, 0.8), ("point", 2.0, 0.4))
    ]
    position = tile.zeros((CELLS,), f32).sync_on(stream)
    current = tile.full((CELLS,), 0.4, f32).sync_on(stream)
    for day in range(3):
        peaks = survey(transects, stream)
        wind = tile.from_numpy(rng.normal(5.0, 2.0, CELLS).astype(np.float32))
        pos, current, _, _ = drift(position.partition((32,)), current, wind, 24.0).sync_on(stream)
        position = pos.unpartition()
        busiest = max(peaks, key=peaks.get)
        print(f"day {day}: densest at {busiest} ({peaks[busiest]:.0f}/km2), "
              f"mean drift {float(position.to_numpy(stream).mean()):.1f} km")


if __name__ == "__main__":
    main()
