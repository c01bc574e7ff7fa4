# fresh-expect: clean
# fresh-note: An injection-molding monitor carves fill/short-shot maps from a bump-allocated arena with split_at, launches under try/finally with for/else, and runs a tile cooling loop that rebinds every handed-back value.
"""Injection molding cycle monitor: per-cavity fill and short-shot maps carved from one arena, then a tile cooling pass."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SENSORS = 128


@simt.kernel
@simt.launch_contract(block=128)
def classify_fill(pressure: Slice[f32], fill: DisjointSlice[f32], short: DisjointSlice[f32], target: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    p = pressure[i]
    if (f := fill.get_mut(idx)) is not None:
        f.set(min(p / target, f32(1.0)))
    jdx = thread.index_1d()
    if (s := short.get_mut(jdx)) is not None:
        if p < target * 0.8:
            s.set(f32(1.0))
        else:
            s.set(f32(0.0))


@tile.kernel
def cool(z: Partition[f32], temp: Tensor[f32], rate: f32) -> None:
    z.store(tile.load_like(temp, z) * rate)


class Resin(Enum):
    ABS = "abs"
    PP = "pp"
    NYLON = "nylon"


TARGET_BAR = {Resin.ABS: 900.0, Resin.PP: 700.0, Resin.NYLON: 1100.0}


@dataclass
class Cavity:
    name: str
    resin: Resin
    seed: int


class MapArena:
    """Bump allocator over one device buffer: each map is carved after the previous one."""

    def __init__(self, capacity: int, stream: sk.Stream) -> None:
        self.buf = sk.zeros(capacity, f32, stream)
        self.top = 0

    def carve_pair(self, n: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        start = self.top
        self.top += 2 * n
        block = self.buf[start : start + 2 * n]
        return block.split_at(n)


class CycleMonitor:
    def __init__(self, cavities: list[Cavity], dev: sk.Device) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.cavities = cavities
        self.arena = MapArena(2 * SENSORS * len(cavities), self.stream)
        self.prepared = classify_fill.prepare(simt.LaunchConfig1D.for_len(SENSORS, block=128), dev)
        self.report: dict[str, tuple[float, int]] = {}

    def pressure_trace(self, cavity: Cavity) -> sk.DeviceBuffer:
        rng = np.random.default_rng(cavity.seed)
        target = TARGET_BAR[cavity.resin]
        return sk.to_device((target * (0.7 + 0.4 * rng.random(SENSORS))).astype(np.float32), self.stream)

    def shoot(self) -> None:
        for cavity in self.cavities:
            fill, short = self.arena.carve_pair(SENSORS)
            trace = self.pressure_trace(cavity)
            try:
                classify_fill.launch(self.prepared, self.stream, trace, fill, short, TARGET_BAR[cavity.resin])
            finally:
                shorts = int(short.to_numpy(self.stream).sum())
            self.report[cavity.name] = (float(fill.to_numpy(self.stream).mean()), shorts)
            if shorts > SENSORS // 2:
                print(f"{cavity.name}: heavy short shot, stopping the cycle")
                break
        else:
            print("cycle complete:", len(self.report), "cavities")

    def cooling(self, melt_temp: float) -> np.ndarray:
        temps = tile.full((SENSORS,), melt_temp, f32)
        for rate in (0.9, 0.8, 0.75):
            out = tile.zeros((SENSORS,), f32).partition((32,))
            out, _previous, _ = cool(out, temps, rate).sync_on(self.stream)
            temps = out.unpartition()
        return temps.to_numpy(self.stream)


def main() -> None:
    cavities = [Cavity("A1", Resin.ABS, 1), Cavity("A2", Resin.PP, 2), Cavity("B1", Resin.NYLON, 3)]
    monitor = CycleMonitor(cavities, sk.Device.default())
    monitor.shoot()
    for name, (mean_fill, shorts) in sorted(monitor.report.items()):
        print(f"{name}: fill {mean_fill:.2f}, short sensors {shorts}")
    print("cooled to", monitor.cooling(230.0)[:3])


if __name__ == "__main__":
    main()
