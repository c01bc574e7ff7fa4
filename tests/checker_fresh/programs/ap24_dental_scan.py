# fresh-expect: clean
# fresh-note: Intraoral dental-scan wear report; the `segment` helper stores the tensor its threshold launch hands back into `layers[key]`, so the caller's wear launch reads a live enamel layer.
"""Enamel wear report from intraoral 3D scans: segment layers, then compare enamel with an atlas tooth."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.tile import Partition, Tensor
from safekernels.dtypes import f32

GRID = (64, 64)          # depth samples over the occlusal surface
TILE = (16, 64)
THRESHOLDS = {"enamel": 0.55, "dentin": 0.25}


@tile.kernel
def threshold_mask(mask: Partition[f32], layer: Tensor[f32], level: f32) -> None:
    d = tile.load_like(layer, mask)
    mask.store(tile.where(d > level, 1.0, 0.0))


@tile.kernel
def wear_depth(wear: Partition[f32], enamel: Tensor[f32], atlas: Tensor[f32]) -> None:
    wear.store(tile.maximum(tile.load_like(atlas, wear) - tile.load_like(enamel, wear), 0.0))


@dataclass
class ToothScan:
    tooth: int                       # FDI number
    enamel: np.ndarray
    dentin: np.ndarray
    notes: list[str] = field(default_factory=list)


@functools.cache
def atlas_surface(tooth: int) -> np.ndarray:
    y, x = np.mgrid[-1:1:GRID[0] * 1j, -1:1:GRID[1] * 1j]
    cusps = 0.9 - 0.25 * (x ** 2 + y ** 2) + 0.05 * np.cos(3 * x + tooth) * np.cos(3 * y)
    return cusps.astype(np.float32)


def upload(array: np.ndarray, stream: sk.Stream):
    return tile.from_numpy(np.ascontiguousarray(array, dtype=np.float32)).sync_on(stream)


def segment(layers: dict, key: str, stream: sk.Stream) -> np.ndarray:
    mask = tile.zeros(GRID, f32).partition(TILE)
    mask, layers[key], _ = threshold_mask(mask, layers[key], THRESHOLDS[key]).sync_on(stream)
    return mask.unpartition().to_numpy(stream)


class WearReport:
    def __init__(self, stream: sk.Stream, alert_mm: float = 0.12) -> None:
        self.stream = stream
        self.alert_mm = alert_mm
        self.rows: list[dict] = []

    def analyse(self, scan: ToothScan) -> dict:
        layers = {"enamel": upload(scan.enamel, self.stream), "dentin": upload(scan.dentin, self.stream)}
        enamel_mask = segment(layers, "enamel", self.stream)
        dentin_mask = segment(layers, "dentin", self.stream)
        wear = tile.zeros(GRID, f32).partition(TILE)
        atlas = upload(atlas_surface(scan.tooth), self.stream)
        wear, _, _ = wear_depth(wear, layers["enamel"], atlas).sync_on(self.stream)
        depth = wear.unpartition().to_numpy(self.stream)
        exposed = float(((dentin_mask > 0) & (enamel_mask == 0)).mean())
        row = {"tooth": scan.tooth, "max_wear": float(depth.max()), "dentin_exposed": exposed}
        self.rows.append(row)
        return row

    def flagged(self) -> Iterator[dict]:
        yield from (r for r in self.rows if r["max_wear"] > self.alert_mm or r["dentin_exposed"] > 0.05)


def simulated_scans(teeth: list[int]) -> Iterator[ToothScan]:
    rng = np.random.default_rng(9)
    for tooth in teeth:
        surface = atlas_surface(tooth) - rng.uniform(0.0, 0.3) * (rng.random(GRID) > 0.7)
        yield ToothScan(tooth, surface.astype(np.float32), (surface * 0.5).astype(np.float32))


def main() -> None:
    report = WearReport(sk.Device.cpu().new_stream())
    for scan in simulated_scans([16, 26, 36, 46]):
        report.analyse(scan)
    for row in report.flagged():
        print(f"tooth {row['tooth']}: wear {row['max_wear']:.2f} mm, dentin exposed {row['dentin_exposed']:.1%}")
    print(f"{len(report.rows)} teeth analysed")


if __name__ == "__main__":
    main()
