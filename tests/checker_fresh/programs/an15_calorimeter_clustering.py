# fresh-expect: E0505 at line 75
# fresh-note: Particle-physics calorimeter reconstruction with a calibrate-ahead loop: `flush()` sits at the end of the iteration instead of the top, so the event's calibrate launch_async (kept in the builder's pending list) still borrows the energy buffer when the tower kernel moves it.
from __future__ import annotations
from dataclasses import dataclass, field


import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

CELLS = 512  # 16 eta rings x 32 phi sectors
GROUP = 4  # cells summed into one trigger tower
TOWERS = CELLS // GROUP
TT = 32  # towers per tile block
BLOCK = 128
NOISE_CUT = 0.05  # GeV, zero suppression


@simt.kernel
@simt.launch_contract(block=BLOCK)
def calibrate(adc: Slice[i32], pedestal: Slice[f32], gain: Slice[f32], energy: DisjointSlice[f32], cut: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := energy.get_mut(idx)) is not None:
        v = (f32(adc[i]) - pedestal[i]) * gain[i]
        e.set(v if v > cut else f32(0.0))


@tile.kernel
def tower_sums(towers: Partition[f32], energy: Tensor[f32]) -> None:
    cells = energy.load((tile.bid(0),), (TT * GROUP,))
    towers.store(tile.sum(tile.reshape(cells, (TT, GROUP)), axis=1))


@dataclass
class Conditions:
    pedestal: np.ndarray
    gain: np.ndarray


@dataclass
class EventBuilder:
    device: sk.Device
    conditions: Conditions
    pending: list[sk.DeviceOp] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stream = self.device.new_stream()
        self.pedestal = sk.to_device(self.conditions.pedestal.astype(np.float32), self.stream)
        self.gain = sk.to_device(self.conditions.gain.astype(np.float32), self.stream)
        self.prepared = calibrate.prepare(simt.LaunchConfig1D.for_len(CELLS, block=BLOCK), self.device)

    def __enter__(self) -> EventBuilder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.flush()  # never leave a calibration running past the run

    def calibrate(self, raw: np.ndarray) -> sk.DeviceBuffer:
        adc = sk.to_device(raw.astype(np.int32), self.stream)
        energy = sk.zeros(CELLS, f32, self.stream)
        self.pending.append(calibrate.launch_async(self.prepared, adc, self.pedestal, self.gain, energy, NOISE_CUT))
        return energy

    def flush(self) -> None:
        while self.pending:
            self.pending.pop(0).sync_on(self.stream)

    def towers(self, energy: sk.DeviceBuffer) -> np.ndarray:
        out = tile.zeros((TOWERS,), f32).partition((TT,))
        out, _ = tower_sums(out, energy).sync_on(self.stream)
        return out.unpartition().to_numpy(self.stream)

    def process(self, events: list[np.ndarray]) -> list[np.ndarray]:
        results = []
        energy = self.calibrate(events[0])
        for k in range(len(events)):
            upcoming = self.calibrate(events[k + 1]) if k + 1 < len(events) else None
            results.append(self.towers(energy))
            self.flush()
            energy = upcoming
        return results


def count_clusters(towers: np.ndarray, seed: float = 2.0) -> int:
    left, right = np.roll(towers, 1), np.roll(towers, -1)
    return int(np.sum((towers > seed) & (towers >= left) & (towers > right)))


def main() -> None:
    rng = np.random.default_rng(17)
    cond = Conditions(pedestal=rng.normal(100, 2, CELLS), gain=rng.uniform(0.009, 0.011, CELLS))
    events = []
    for _ in range(3):
        raw = rng.normal(cond.pedestal, 1.5).round()
        for hit in rng.choice(CELLS, 3, replace=False):
            raw[hit] += 600 / cond.gain[hit] / 100  # a 6 GeV deposit
        events.append(raw)
    with EventBuilder(sk.Device.cpu(), cond) as builder:
        results = builder.process(events)
    for k, towers in enumerate(results):
        e = (events[k].astype(np.int32) - cond.pedestal.astype(np.float32)) * cond.gain.astype(np.float32)
        want = np.where(e > NOISE_CUT, e, 0).reshape(TOWERS, GROUP).sum(axis=1)
        np.testing.assert_allclose(towers, want, rtol=1e-4, atol=1e-5)
        print(f"event {k}: {towers.sum():6.2f} GeV in {count_clusters(towers)} clusters")


if __name__ == "__main__":
    main()
