# fresh-expect: clean
# fresh-note: Runs cassava through gari stages with one tray per stage chained by itertools.pairwise; the trays are allocated with a comprehension, so every (before, after) pair is two distinct buffers.
"""Gari processing co-op (Ogun): grates, ferments, presses and roasts cassava mash, keeping every stage's tray."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

MASH_CELLS = 320


@simt.kernel
@simt.launch_contract(block=64)
def process(before: Slice[f32], after: DisjointSlice[f32], water_out: f32, cyanide_out: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := after.get_mut(idx)) is not None:
        cell.set(before[i] * (1.0 - water_out) - cyanide_out * before[i] * 0.1)


@dataclass(frozen=True)
class Stage:
    name: str
    hours: int
    water_out: float
    cyanide_out: float


class GariLine:
    """One tray per stage; stage k reads tray k and fills tray k + 1."""

    __slots__ = ("stream", "prepared", "trays", "log")

    STAGES: ClassVar[tuple[Stage, ...]] = (
        Stage("grate", 1, 0.02, 0.10),
        Stage("ferment", 72, 0.05, 0.60),
        Stage("press", 12, 0.35, 0.20),
        Stage("roast", 1, 0.40, 0.05),
    )

    def __init__(self, device: sk.Device, tubers: np.ndarray) -> None:
        self.stream = device.new_stream()
        n = len(tubers)
        self.prepared = process.prepare(simt.LaunchConfig1D.for_len(n, block=64), device)
        self.trays = [sk.to_device(tubers.astype(np.float32), self.stream)]
        self.trays += [sk.zeros(n, f32, self.stream) for _ in self.STAGES]
        self.log: list[str] = []

    def run(self) -> "GariLine":
        for k, (before, after) in enumerate(itertools.pairwise(self.trays)):
            stage = self.STAGES[k]
            process.launch(self.prepared, self.stream, before, after, stage.water_out, stage.cyanide_out)
            self.log.append(f"{stage.name} ({stage.hours} h)")
        return self

    def yields(self) -> list[float]:
        return [float(tray.to_numpy(self.stream).sum()) for tray in self.trays]


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(83)
    for village in ("Abeokuta", "Ijebu-Ode"):
        line = GariLine(device, rng.uniform(0.8, 1.2, MASH_CELLS)).run()
        masses = line.yields()
        print(village, " -> ".join(line.log))
        print(f"   yield {masses[-1] / masses[0]:.1%} of fresh mass")


if __name__ == "__main__":
    main()
