# fresh-expect: E0499 at line 60
# fresh-note: A hydraulic press controller preallocates per-cylinder force outputs with dict.fromkeys(Cylinder, sk.zeros(...)), so all cylinders share one buffer and the second pending launch_async writes what the first still writes.
"""Hydraulic press force balance: per-cylinder force from pressure traces, launched asynchronously and synced together."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STROKE = 256


class Cylinder(Enum):
    MASTER = "master"
    LEFT = "left"
    RIGHT = "right"


BORE_M = {Cylinder.MASTER: 0.32, Cylinder.LEFT: 0.18, Cylinder.RIGHT: 0.18}


@simt.kernel
@simt.launch_contract(block=128)
def piston_force(pressure_bar: Slice[f32], force_kn: DisjointSlice[f32], area_m2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := force_kn.get_mut(idx)) is not None:
        o.set(pressure_bar[i] * area_m2 * 100.0)


@dataclass
class Stroke:
    die: str
    tonnage: float
    skew: float


class PressController:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.plan = piston_force.prepare(simt.LaunchConfig1D.for_len(STROKE, block=128), dev)
        self.force = dict.fromkeys(Cylinder, sk.zeros(STROKE, f32, self.stream))
        self.history: list[dict[str, float]] = []

    def pressure(self, stroke: Stroke, cylinder: Cylinder) -> sk.DeviceBuffer:
        ramp = np.sin(np.linspace(0.0, np.pi, STROKE, dtype=np.float32))
        bias = {Cylinder.LEFT: 1.0 + stroke.skew, Cylinder.RIGHT: 1.0 - stroke.skew}.get(cylinder, 1.0)
        return sk.to_device((stroke.tonnage * 0.9 * bias * ramp).astype(np.float32), self.stream)

    def run(self, stroke: Stroke) -> dict[str, float]:
        ops = []
        for cylinder in Cylinder:
            area = np.pi * BORE_M[cylinder] ** 2 / 4.0
            ops.append(piston_force.launch_async(self.plan, self.pressure(stroke, cylinder), self.force[cylinder], area))
        sk.zip(*ops).sync_on(self.stream)
        peaks = {c.value: float(self.force[c].to_numpy(self.stream).max()) for c in Cylinder}
        self.history.append(peaks)
        return peaks

    def balance(self, peaks: dict[str, float]) -> float:
        return abs(peaks["left"] - peaks["right"]) / max(peaks["left"], peaks["right"], 1e-6)


def main() -> None:
    press = PressController(sk.Device.default())
    for stroke in (Stroke("fender", 800.0, 0.02), Stroke("door-inner", 650.0, 0.07)):
        peaks = press.run(stroke)
        imbalance = press.balance(peaks)
        print(f"{stroke.die}: {peaks} imbalance {imbalance:.1%}{' -> shim the die' if imbalance > 0.05 else ''}")


if __name__ == "__main__":
    main()
