# fresh-expect: clean
# fresh-known-false-alarm: cli,mypy false E0505 at line 69: a method may run after any other, so `porosity_fraction` starts with the ops `scan` stored still pending; the program drains them first (`drain()`), which the method's own analysis cannot know
# fresh-note: A weld-seam inspector keeps launch_async ops in a list attribute, drains it with a while/pop loop before moving each output into a tile porosity chain built with first/unpartition/then.
"""Weld seam inspection: async bead-height thresholding per seam, drained before a tile porosity score."""
from __future__ import annotations
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SCAN = 256


@simt.kernel
@simt.launch_contract(block=64)
def bead_deviation(profile: Slice[f32], nominal: Slice[f32], dev_out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dev_out.get_mut(idx)) is not None:
        o.set(abs(profile[i] - nominal[i]))


@tile.kernel
def porosity(z: Partition[f32], deviation: Tensor[f32], limit: f32) -> None:
    d = tile.load_like(deviation, z)
    z.store(tile.where(d > limit, 1.0, 0.0))


@dataclass
class Seam:
    name: str
    station: str
    amplitude: float


class SeamInspector:
    def __init__(self, dev: sk.Device, nominal_mm: float) -> None:
        self.stream = dev.new_stream()
        self.prepared = bead_deviation.prepare(simt.LaunchConfig1D.for_len(SCAN, block=64), dev)
        self.nominal = sk.to_device(np.full(SCAN, nominal_mm, np.float32), self.stream)
        self.pending: list[tuple[str, sk.DeviceOp]] = []
        self.deviations: dict[str, sk.DeviceBuffer] = {}

    def scan(self, seam: Seam) -> None:
        rng = np.random.default_rng(len(seam.name) * 17)
        heights = 2.0 + seam.amplitude * rng.standard_normal(SCAN)
        profile = sk.to_device(heights.astype(np.float32), self.stream)
        out = sk.zeros(SCAN, f32, self.stream)
        self.deviations[seam.name] = out
        self.pending.append((seam.name, bead_deviation.launch_async(self.prepared, profile, self.nominal, out)))

    def drain(self) -> int:
        drained = 0
        while self.pending:
            _name, op = self.pending.pop(0)
            op.sync_on(self.stream)
            drained += 1
        return drained

    def porosity_fraction(self, name: str, limit: float) -> float:
        deviation = self.deviations.pop(name)
        flags = tile.zeros((SCAN,), f32).partition((64,))
        chain = porosity(flags, deviation, limit).first().unpartition()
        scored = chain.then(lambda t: float(t.to_numpy(self.stream).mean()))
        return scored.sync_on(self.stream)


def main() -> None:
    inspector = SeamInspector(sk.Device.default(), nominal_mm=2.0)
    seams = [Seam("root-1", "cell-A", 0.2), Seam("cap-1", "cell-A", 0.6), Seam("root-2", "cell-B", 0.35)]
    for seam in seams:
        inspector.scan(seam)
    print("drained", inspector.drain(), "scans")
    by_station: defaultdict[str, list[float]] = defaultdict(list)
    for seam in seams:
        frac = inspector.porosity_fraction(seam.name, limit=0.5)
        by_station[seam.station].append(frac)
        verdict = "reject" if frac > 0.25 else "pass"
        print(f"{seam.name}: porosity {frac:.2%} -> {verdict}")
    print({station: max(fracs) for station, fracs in by_station.items()})


if __name__ == "__main__":
    main()
