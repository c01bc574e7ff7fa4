# fresh-expect: E0505 at line 50
# fresh-note: Kelp-forest understory light model with a one-day-deep async pipeline (each day's shading op is collected during the next day); at the end of the season the canopy buffer is handed to the archive executor with `.to()` while the last day's pending op still reads it.
"""Seafloor light under a kelp canopy over a season, pipelined one day deep."""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 2048
DAYS = 6


@simt.kernel
@simt.launch_contract(block=128)
def shade(canopy: Slice[f32], depth: Slice[f32], light: DisjointSlice[f32], surface: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := light.get_mut(idx)) is not None:
        o.set(surface * math.exp(-(f32(0.12) * depth[i] + f32(1.8) * canopy[i])))


class KelpSeason:
    def __init__(self, home: sk.Device, archive: sk.Device) -> None:
        self.home = home
        self.archive = archive
        self.stream = home.new_stream()
        self.archive_stream = archive.new_stream()
        rng = np.random.default_rng(17)
        self.canopy = sk.to_device(rng.beta(2.0, 3.0, CELLS).astype(np.float32), self.stream)
        self.depth = sk.to_device(rng.uniform(4.0, 18.0, CELLS).astype(np.float32), self.stream)
        self.prepared = shade.prepare(simt.LaunchConfig1D.for_len(CELLS, block=128), home)
        self.archived = None

    def shade_day(self, day: int) -> tuple[sk.DeviceOp, sk.DeviceBuffer]:
        surface = 1200.0 * max(0.2, math.sin(math.pi * (day + 0.5) / (DAYS + 1)))
        light = sk.zeros(CELLS, f32, self.stream)
        return shade.launch_async(self.prepared, self.canopy, self.depth, light, surface), light

    def collect(self, op: sk.DeviceOp, light: sk.DeviceBuffer) -> float:
        op.sync_on(self.stream)
        return float(light.to_numpy(self.stream).mean())

    def archive_canopy(self) -> None:
        self.archived = self.canopy.to(self.archive, self.archive_stream)

    def run(self) -> list[float]:
        daily: list[float] = []
        pending = None
        for day in range(DAYS):
            op, light = self.shade_day(day)
            if pending is not None:
                daily.append(self.collect(*pending))
            pending = (op, light)
        self.archive_canopy()
        if pending is not None:
            daily.append(self.collect(*pending))
        return daily


def main() -> None:
    season = KelpSeason(sk.Device.cpu(0), sk.Device.cpu(1))
    for day, mean_light in enumerate(season.run()):
        print(f"day {day}: mean seafloor PAR {mean_light:.1f}")


if __name__ == "__main__":
    main()
