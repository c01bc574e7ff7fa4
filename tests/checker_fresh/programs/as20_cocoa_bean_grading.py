# fresh-expect: clean
# fresh-note: Cocoa-bean grading; the bean-weight buffer goes into the moisture-correction tile launch and the handed-back buffer is rebound to `self.weights` before the SIMT grading launch reads it.
"""Moisture-corrected bean weights and export grades for cocoa lots."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BEANS = 300            # beans per cut-test sample
TILE = 100
TARGET_MOISTURE = 0.075


@tile.kernel
def dry_weight(adjusted: Partition[f32], weights: Tensor[f32], moisture: f32, target: f32) -> None:
    adjusted.store(tile.load_like(weights, adjusted) * ((1.0 - moisture) / (1.0 - target)))


@simt.kernel
@simt.launch_contract(block=128)
def grade_beans(adjusted: Slice[f32], raw: Slice[f32], grade: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (g := grade.get_mut(idx)) is not None:
        w = adjusted[i]
        label = i32(3)
        if w >= 1.0:
            label = i32(1)
        elif w >= 0.85:
            label = i32(2)
        if raw[i] - w > 0.15:
            label = i32(3)         # lost too much on drying: likely mouldy or slaty
        g.set(label)


@dataclass
class Lot:
    origin: str
    moisture: float
    weights: sk.DeviceBuffer
    grades: dict[int, int] = field(default_factory=dict)


class GradingBench:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = grade_beans.prepare(simt.LaunchConfig1D.for_len(BEANS, block=128), dev)

    def correct(self, lot: Lot) -> sk.tile.Tensor:
        part, lot.weights, _m, _t = dry_weight(
            tile.zeros((BEANS,), f32).partition((TILE,)), lot.weights, lot.moisture, TARGET_MOISTURE
        ).sync_on(self.stream)
        return part.unpartition()

    def grade(self, lot: Lot) -> Lot:
        adjusted = self.correct(lot)
        labels = sk.zeros(BEANS, i32, self.stream)
        grade_beans.launch(self.prepared, self.stream, adjusted, lot.weights, labels)
        counts = np.bincount(labels.to_numpy(self.stream), minlength=4)
        lot.grades = {g: int(counts[g]) for g in (1, 2, 3)}
        return lot


def sample_lot(origin: str, moisture: float, seed: int, stream: sk.Stream) -> Lot:
    rng = np.random.default_rng(seed)
    grams = rng.normal(1.05, 0.12, BEANS).clip(0.5, 1.6).astype(np.float32)
    return Lot(origin, moisture, sk.to_device(grams, stream))


def export_grade(lot: Lot) -> str:
    share = lot.grades.get(1, 0) / BEANS
    if share >= 0.6:
        return "Grade I"
    return "Grade II" if share >= 0.35 else "sub-standard"


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    bench = GradingBench(dev, stream)
    lots = [sample_lot(o, m, k, stream) for k, (o, m) in enumerate((("Ghana", 0.07), ("Ecuador", 0.09), ("Sulawesi", 0.11)))]
    for lot in map(bench.grade, lots):
        print(f"{lot.origin:9s} moisture {lot.moisture:.0%}: {lot.grades} -> {export_grade(lot)}")
    heaviest = max(lots, key=lambda lot: float(lot.weights.to_numpy(stream).mean()))
    print("heaviest raw beans:", heaviest.origin)


if __name__ == "__main__":
    main()
