# fresh-expect: E0499 at line 58
# fresh-note: ceramic kiln firing schedule; the ramp and soak segments returned by a helper share the boundary sample, so the two output views of one launch overlap by one element.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLES = 128


@simt.kernel
@simt.launch_contract(block=64)
def fire_segments(setpoint: Slice[f32], ramp: DisjointSlice[f32], soak: DisjointSlice[f32], rate: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := ramp.get_mut(idx)) is not None:
        r.set(setpoint[i] + rate * f32(i))
    j = thread.index_1d()
    if (s := soak.get_mut(j)) is not None:
        s.set(setpoint[i] * f32(0.98))


@dataclass(frozen=True)
class Glaze:
    name: str
    peak_c: float
    ramp_c_per_min: float


def segments(buf: sk.DeviceBuffer, n: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    mid = n // 2
    # the soak starts at the sample where the ramp ends
    return buf[: mid + 1], buf[mid:]


class KilnController:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self.profiles: dict[str, np.ndarray] = {}

    def _plan(self, n: int) -> simt.PreparedLaunch:
        return fire_segments.prepare(simt.LaunchConfig1D.for_len(n, block=64), self.dev)

    def program(self, glaze: Glaze) -> np.ndarray:
        curve = sk.zeros(SAMPLES, f32, self.stream)
        base = np.linspace(20.0, glaze.peak_c, SAMPLES // 2 + 1).astype(np.float32)
        setpoint = sk.to_device(base, self.stream)
        ramp, soak = segments(curve, SAMPLES)
        prepared = self._plan(len(base))
        rate = glaze.ramp_c_per_min / 600.0
        fire_segments.launch(prepared, self.stream, setpoint, ramp, soak, rate)
        profile = curve.to_numpy(self.stream)
        self.profiles[glaze.name] = profile
        return profile


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    kiln = KilnController(dev, stream)
    glazes = [Glaze("celadon", 1260.0, 150.0), Glaze("raku", 980.0, 300.0)]
    for glaze in sorted(glazes, key=lambda g: g.peak_c):
        prof = kiln.program(glaze)
        print(f"{glaze.name}: peak {prof.max():.0f} C over {len(prof)} samples")
    print("stored:", ", ".join(kiln.profiles))


if __name__ == "__main__":
    main()
