# fresh-expect: clean
# fresh-note: Grades pisco distillation runs with launch_async ops kept per still in a dict; a second firing of a still first pops and syncs the still's previous op before storing the new one, and collect drains the rest with popitem in try/finally.
"""Pisco alembic cellar: grades each run's distillate into head, heart and tail cuts per still."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

READINGS = 240


@simt.kernel
@simt.launch_contract(block=80)
def heart_fraction(abv: Slice[f32], aroma: Slice[f32], heart: DisjointSlice[f32], cut: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := heart.get_mut(idx)) is not None:
        keep = abv[i] < cut and abv[i] > cut - 30.0
        cell.set(aroma[i] if keep else 0.0)


@dataclass(frozen=True)
class Still:
    name: str
    grape: str
    cut_abv: float


@dataclass
class Run:
    still: Still
    abv: np.ndarray
    aroma: np.ndarray


class Cellar:
    """One in-flight grading per still; re-running a still waits for its previous grading first."""

    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.n = n
        self.prepared = heart_fraction.prepare(simt.LaunchConfig1D.for_len(n, block=80), device)
        self.pending: dict[str, sk.DeviceOp] = {}
        self.outputs: dict[str, sk.DeviceBuffer] = {}
        self.superseded: list[float] = []

    def submit(self, run: Run) -> "Cellar":
        name = run.still.name
        if name in self.pending:
            self.pending.pop(name).sync_on(self.stream)
            self.superseded.append(float(self.outputs[name].to_numpy(self.stream).sum()))
        abv = sk.to_device(run.abv.astype(np.float32), self.stream)
        aroma = sk.to_device(run.aroma.astype(np.float32), self.stream)
        heart = sk.zeros(self.n, f32, self.stream)
        self.pending[name] = heart_fraction.launch_async(self.prepared, abv, aroma, heart, run.still.cut_abv)
        self.outputs[name] = heart
        return self

    def collect(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        try:
            while self.pending:
                name, op = self.pending.popitem()
                op.sync_on(self.stream)
                totals[name] = float(self.outputs[name].to_numpy(self.stream).sum())
        finally:
            self.pending.clear()
        return totals


def distil(still: Still, rng: np.random.Generator) -> Run:
    abv = np.linspace(82.0, 20.0, READINGS) + rng.normal(0.0, 0.5, READINGS)
    return Run(still, abv, rng.uniform(0.2, 1.0, READINGS))


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(37)
    stills = [Still("Ica-1", "quebranta", 72.0), Still("Ica-2", "italia", 70.0), Still("Moquegua", "torontel", 71.0)]
    cellar = Cellar(device, READINGS)
    runs = [distil(s, rng) for s in stills]
    runs.append(distil(stills[1], rng))  # second firing of the italia still, same day
    for run in runs:
        cellar.submit(run)
    for name, total in sorted(cellar.collect().items()):
        print(f"{name:>9}: heart aroma {total:.2f}")
    print("superseded runs:", [round(v, 2) for v in cellar.superseded])


if __name__ == "__main__":
    main()
