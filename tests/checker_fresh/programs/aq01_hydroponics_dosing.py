# fresh-expect: E0502 at line 75
# fresh-note: Hydroponic EC dosing per grow zone with a SIMT kernel; bug: `allocate` adds no "dosed" buffer for the recirculating tomato zone, so `ZoneBuffers.output()` falls back via `extras.get("dosed", self.ec)` to the input buffer and `Doser.apply`'s launch at line 75 reads `bufs.ec` and writes the same buffer as `dosed`.
"""Hydroponic nutrient dosing: per-zone EC (electrical conductivity) readings are nudged toward a target.

Each grow zone keeps its sensor readings and its target profile on the device; a SIMT kernel computes how
far each sensor's reservoir should be dosed.  Recirculating zones are meant to update their readings in
place, everything else gets a dedicated dosing buffer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(ec) >= len(dosed)", "len(target) >= len(dosed)"))
def dose(ec: Slice[f32], target: Slice[f32], dosed: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dosed.get_mut(idx)) is not None:
        err = target[i] - ec[i]
        out.set(ec[i] + gain * max(err, f32(0.0)))


@dataclass
class Zone:
    name: str
    sensors: int
    recirculating: bool = False
    gain: float = 0.4


@dataclass
class ZoneBuffers:
    ec: sk.DeviceBuffer
    target: sk.DeviceBuffer
    extras: dict[str, sk.DeviceBuffer] = field(default_factory=dict)

    def output(self) -> sk.DeviceBuffer:
        # recirculating zones write back into their reservoir readings
        return self.extras.get("dosed", self.ec)


def allocate(zone: Zone, stream: sk.Stream, rng: np.random.Generator) -> ZoneBuffers:
    ec = sk.to_device(rng.uniform(0.8, 2.0, zone.sensors).astype(np.float32), stream)
    target = sk.to_device(np.full(zone.sensors, 1.8, np.float32), stream)
    bufs = ZoneBuffers(ec, target)
    if not zone.recirculating:
        bufs.extras["dosed"] = sk.zeros(zone.sensors, f32, stream)
    return bufs


class Doser:
    def __init__(self, device: sk.Device, stream: sk.Stream) -> None:
        self.device = device
        self.stream = stream
        self._plans: dict[int, simt.PreparedLaunch] = {}

    def plan(self, n: int) -> simt.PreparedLaunch:
        if n not in self._plans:
            self._plans[n] = dose.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.device)
        return self._plans[n]

    def apply(self, zone: Zone, bufs: ZoneBuffers) -> np.ndarray:
        out = bufs.output()
        dose.launch(self.plan(zone.sensors), self.stream, bufs.ec, bufs.target, out, zone.gain)
        return out.to_numpy(self.stream)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    rng = np.random.default_rng(7)
    zones = [
        Zone("lettuce", 384),
        Zone("basil", 256, gain=0.25),
        Zone("tomato", 512, recirculating=True),
    ]
    doser = Doser(device, stream)
    report: dict[str, float] = {}
    for zone in zones:
        bufs = allocate(zone, stream, rng)
        dosed = doser.apply(zone, bufs)
        report[zone.name] = float(dosed.mean())
    for name, mean_ec in sorted(report.items()):
        print(f"{name:>8}: mean EC after dosing {mean_ec:.3f} mS/cm")


if __name__ == "__main__":
    main()
