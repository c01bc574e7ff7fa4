# fresh-expect: E0502 at line 82
# fresh-known-miss: cli,mypy a hook registered by a decorator method on a nested function of `main` (`@station.on_queued`) reads an output with `to_numpy` while the op writing it is pending: hooks a registry fills from outside the class are not followed
# fresh-note: Tram regenerative-braking energy; the dashboard observer hook is notified right after each line's launch_async is queued and reads that line's `regen` output with to_numpy while the op still writes it.
"""Regenerative braking energy returned to the overhead line by each tram route."""
from __future__ import annotations
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SEGMENTS = 160            # braking events logged per route per hour
TRAM_MASS_T = 42.0
EFFICIENCY = 0.62


@simt.kernel
@simt.launch_contract(block=64)
def regen_energy(v_start: Slice[f32], v_end: Slice[f32], regen: DisjointSlice[f32], mass_t: f32, eff: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := regen.get_mut(idx)) is not None:
        dv2 = v_start[i] * v_start[i] - v_end[i] * v_end[i]
        if dv2 < 0.0:
            dv2 = f32(0.0)
        r.set(0.5 * mass_t * 1000.0 * dv2 * eff / 3.6e6)     # kWh


@dataclass
class Route:
    name: str
    v_start: sk.DeviceBuffer
    v_end: sk.DeviceBuffer
    regen: sk.DeviceBuffer
    totals: list[float] = field(default_factory=list)


class Substation:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = regen_energy.prepare(simt.LaunchConfig1D.for_len(SEGMENTS, block=64), dev)
        self.hooks: list[Callable[[Route], None]] = []

    def on_queued(self, hook: Callable[[Route], None]) -> Callable[[Route], None]:
        self.hooks.append(hook)
        return hook

    def hour(self, routes: list[Route]) -> float:
        pending: dict[str, sk.DeviceOp] = {}
        for route in routes:
            pending[route.name] = regen_energy.launch_async(
                self.prepared, route.v_start, route.v_end, route.regen, TRAM_MASS_T, EFFICIENCY)
            for hook in self.hooks:
                hook(route)
        for name, op in pending.items():
            op.sync_on(self.stream)
        total = 0.0
        for route in routes:
            route.totals.append(float(route.regen.to_numpy(self.stream).sum()))
            total += route.totals[-1]
        return total


def braking_log(seed: int, line_speed_kmh: float, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    rng = np.random.default_rng(seed)
    start = rng.normal(line_speed_kmh, 6.0, SEGMENTS).clip(5.0, 80.0) / 3.6
    end = start * rng.uniform(0.0, 0.4, SEGMENTS)
    return sk.to_device(start.astype(np.float32), stream), sk.to_device(end.astype(np.float32), stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    station = Substation(dev, stream)
    dashboard: dict[str, float] = {}

    @station.on_queued
    def show_peak(route: Route) -> None:
        dashboard[route.name] = float(route.regen.to_numpy(stream).max())

    routes = []
    for seed, (name, speed) in enumerate((("T1", 38.0), ("T2", 45.0), ("T4", 30.0))):
        v0, v1 = braking_log(seed, speed, stream)
        routes.append(Route(name, v0, v1, sk.zeros(SEGMENTS, f32, stream)))
    for hour in range(3):
        kwh = station.hour(routes)
        print(f"hour {hour}: {kwh:6.1f} kWh returned, peaks " + ", ".join(f"{k} {v:.2f}" for k, v in dashboard.items()))
    best = max(routes, key=lambda r: sum(r.totals))
    print(f"most regenerative route: {best.name} ({sum(best.totals):.1f} kWh)")


if __name__ == "__main__":
    main()
