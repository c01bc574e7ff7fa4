# fresh-expect: E0502 at line 75
# fresh-note: wind-farm yield estimate with a Jensen wake model started as a launch_async op kept on the farm object; a summary method reads the total_power property, which launches the power-curve kernel on the deficit buffer while the wake op still writes it.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

TURBINES = 24
ROTOR_R = 40.0


@simt.kernel
@simt.launch_contract(block=32)
def wake_deficit(x: Slice[f32], y: Slice[f32], deficit: DisjointSlice[f32], cos_w: f32, sin_w: f32,
                 k: f32, ct: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := deficit.get_mut(idx)) is not None:
        xi = x[i] * cos_w + y[i] * sin_w
        yi = -x[i] * sin_w + y[i] * cos_w
        total = f32(0.0)
        for j in range(len(x)):
            dx = xi - (x[j] * cos_w + y[j] * sin_w)
            dy = yi - (-x[j] * sin_w + y[j] * cos_w)
            radius = f32(ROTOR_R) + k * dx
            if dx > f32(0.0) and abs(dy) < radius:
                ratio = f32(ROTOR_R) / radius
                d = (f32(1.0) - math.sqrt(f32(1.0) - ct)) * ratio * ratio
                total += d * d
        o.set(math.sqrt(total))


@simt.kernel
@simt.launch_contract(block=32)
def power_curve(deficit: Slice[f32], power: DisjointSlice[f32], u_inf: f32, rated: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := power.get_mut(idx)) is not None:
        u = u_inf * (f32(1.0) - deficit[i])
        p = f32(0.5 * 1.225 * 3.14159 * ROTOR_R * ROTOR_R * 0.45) * u * u * u / f32(1.0e6)
        o.set(min(p, rated))


class WindFarm:
    def __init__(self, dev: sk.Device, layout: np.ndarray) -> None:
        self.stream = dev.new_stream()
        cfg = simt.LaunchConfig1D.for_len(TURBINES, block=32)
        self.wake_launch = wake_deficit.prepare(cfg, dev)
        self.power_launch = power_curve.prepare(cfg, dev)
        self.x = sk.to_device(layout[:, 0].astype(np.float32), self.stream)
        self.y = sk.to_device(layout[:, 1].astype(np.float32), self.stream)
        self.deficit = sk.zeros(TURBINES, f32, self.stream)
        self.power = sk.zeros(TURBINES, f32, self.stream)
        self.pending = None
        self.u_inf = 9.0

    def start_wake(self, direction_deg: float) -> None:
        a = math.radians(direction_deg)
        self.pending = wake_deficit.launch_async(self.wake_launch, self.x, self.y, self.deficit,
                                                 math.cos(a), math.sin(a), 0.075, 0.8)

    def finish(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    @property
    def total_power(self) -> float:
        power_curve.launch(self.power_launch, self.stream, self.deficit, self.power, self.u_inf, 3.6)
        return float(self.power.to_numpy(self.stream).sum())

    def summary(self, direction_deg: float) -> str:
        return f"{direction_deg:5.1f} deg: {self.total_power:6.2f} MW"


def grid_layout(rows: int, cols: int, spacing: float) -> np.ndarray:
    return np.array([(c * spacing, r * spacing) for r in range(rows) for c in range(cols)], np.float64)


def main() -> None:
    farm = WindFarm(sk.Device.cpu(), grid_layout(4, 6, 7 * ROTOR_R))
    lines = []
    for direction in (0.0, 30.0, 45.0, 90.0):
        farm.start_wake(direction)
        lines.append(farm.summary(direction))
        farm.finish()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
