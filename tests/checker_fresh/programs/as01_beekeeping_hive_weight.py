# fresh-expect: E0502 at line 72
# fresh-note: Beekeeping hive-weight telemetry; an uncalibrated hive falls back through dict.get to its own zeroed delta output buffer as "baseline", so the delta kernel reads and writes one buffer.
"""Daily hive-weight deltas and nectar-flow estimates for a small apiary."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLES_PER_DAY = 96  # one reading every 15 minutes
FLOW_GAIN = 4.0


@simt.kernel
@simt.launch_contract(block=32)
def weight_delta(raw: Slice[f32], baseline: Slice[f32], delta: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := delta.get_mut(idx)) is not None:
        out.set(raw[i] - baseline[i])


@simt.kernel
@simt.launch_contract(block=32)
def nectar_flow(delta: Slice[f32], flow: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := flow.get_mut(idx)) is not None:
        prev = delta[i]
        if i > 0:
            prev = delta[i - 1]
        out.set((delta[i] - prev) * gain)


@dataclass
class Hive:
    name: str
    readings: np.ndarray
    calibrated: bool = False
    buffers: dict[str, sk.DeviceBuffer] = field(default_factory=dict)


class Apiary:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.hives: list[Hive] = []
        cfg = simt.LaunchConfig1D.for_len(SAMPLES_PER_DAY, block=32)
        self.delta_launch = weight_delta.prepare(cfg, dev)
        self.flow_launch = nectar_flow.prepare(cfg, dev)

    def add_hive(self, name: str, readings: np.ndarray, tare: np.ndarray | None = None) -> Hive:
        hive = Hive(name, readings.astype(np.float32))
        hive.buffers["raw"] = sk.to_device(hive.readings, self.stream)
        hive.buffers["delta"] = sk.zeros(SAMPLES_PER_DAY, f32, self.stream)
        hive.buffers["flow"] = sk.zeros(SAMPLES_PER_DAY, f32, self.stream)
        if tare is not None:
            hive.buffers["baseline"] = sk.to_device(tare.astype(np.float32), self.stream)
            hive.calibrated = True
        self.hives.append(hive)
        return hive

    def compute(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        for hive in self.hives:
            bufs = hive.buffers
            # hives without a tare yet: the freshly zeroed delta buffer serves as a zero baseline
            baseline = bufs.get("baseline", bufs["delta"])
            weight_delta.launch(self.delta_launch, self.stream, bufs["raw"], baseline, bufs["delta"])
            nectar_flow.launch(self.flow_launch, self.stream, bufs["delta"], bufs["flow"], FLOW_GAIN)
            totals[hive.name] = float(bufs["flow"].to_numpy(self.stream).sum())
        return totals


def synthetic_day(seed: int, base_kg: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hours = np.linspace(0.0, 24.0, SAMPLES_PER_DAY)
    foraging = np.clip(np.sin((hours - 6.0) / 12.0 * np.pi), 0.0, None) * 1.5
    return base_kg + np.cumsum(foraging) / 40.0 + rng.normal(0.0, 0.02, SAMPLES_PER_DAY)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    apiary = Apiary(dev, stream)
    apiary.add_hive("meadow-1", synthetic_day(1, 42.0), tare=np.full(SAMPLES_PER_DAY, 41.5))
    apiary.add_hive("meadow-2", synthetic_day(2, 38.0))  # new scale, not tared yet
    apiary.add_hive("orchard", synthetic_day(3, 45.0), tare=np.full(SAMPLES_PER_DAY, 44.0))
    for name, total in sorted(apiary.compute().items(), key=lambda kv: -kv[1]):
        status = "calibrated" if any(h.calibrated for h in apiary.hives if h.name == name) else "raw"
        print(f"{name:10s} flow={total:8.3f} ({status})")


if __name__ == "__main__":
    main()
