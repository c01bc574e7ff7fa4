# fresh-expect: clean
# fresh-note: wind-rose yield estimate that starts one wake launch_async op per wind sector, each into its own deficit buffer, registers their syncs on an ExitStack, and runs the power-curve kernel only after the stack has closed.
from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ROTOR_R = 50.0


@simt.kernel
@simt.launch_contract(block=32)
def wake_deficit(x: Slice[f32], y: Slice[f32], deficit: DisjointSlice[f32], cos_w: f32, sin_w: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := deficit.get_mut(idx)) is not None:
        xi = x[i] * cos_w + y[i] * sin_w
        yi = y[i] * cos_w - x[i] * sin_w
        total = f32(0.0)
        for j in range(len(x)):
            dx = xi - (x[j] * cos_w + y[j] * sin_w)
            dy = yi - (y[j] * cos_w - x[j] * sin_w)
            radius = f32(ROTOR_R) + f32(0.05) * dx
            if dx > f32(0.0) and abs(dy) < radius:
                d = f32(0.35) * (f32(ROTOR_R) / radius) * (f32(ROTOR_R) / radius)
                total += d * d
        o.set(math.sqrt(total))


@simt.kernel
@simt.launch_contract(block=32)
def sector_power(deficit: Slice[f32], power: DisjointSlice[f32], u_inf: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := power.get_mut(idx)) is not None:
        u = u_inf * (f32(1.0) - deficit[i])
        o.set(min(f32(0.0021) * u * u * u, f32(5.0)))


@dataclass
class Sector:
    direction: float
    frequency: float
    deficit: sk.DeviceBuffer
    power: sk.DeviceBuffer


def annual_yield(layout: np.ndarray, rose: dict[float, float], u_inf: float) -> float:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = len(layout)
    cfg = simt.LaunchConfig1D.for_len(n, block=32)
    wake_p, power_p = wake_deficit.prepare(cfg, dev), sector_power.prepare(cfg, dev)
    x = sk.to_device(layout[:, 0].astype(np.float32), stream)
    y = sk.to_device(layout[:, 1].astype(np.float32), stream)
    sectors = [Sector(d, f, sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)) for d, f in rose.items()]
    with contextlib.ExitStack() as stack:
        for s in sectors:
            a = math.radians(s.direction)
            pending = wake_deficit.launch_async(wake_p, x, y, s.deficit, math.cos(a), math.sin(a))
            stack.callback(pending.sync_on, stream)
    mean_mw = 0.0
    for s in sectors:
        sector_power.launch(power_p, stream, s.deficit, s.power, u_inf)
        mean_mw += s.frequency * float(s.power.to_numpy(stream).sum())
    return mean_mw * 8760.0


def main() -> None:
    rng = np.random.default_rng(2)
    layout = np.column_stack([rng.uniform(0, 3000, 20), rng.uniform(0, 2000, 20)])
    rose = {0.0: 0.1, 45.0: 0.15, 90.0: 0.1, 180.0: 0.2, 225.0: 0.3, 270.0: 0.15}
    gwh = annual_yield(layout, rose, u_inf=8.5) / 1000.0
    assert gwh > 0
    print(f"estimated annual energy: {gwh:.1f} GWh")


if __name__ == "__main__":
    main()
