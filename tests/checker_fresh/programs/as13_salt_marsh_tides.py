# fresh-expect: E0382 at line 61
# fresh-note: Salt-marsh tidal flooding; on report hours the loop peeks at the water level with `op.first()`, which consumes the step's op, and then runs the same op again with `sync_on` to take the inputs back.
"""Hourly water depth over salt-marsh creek cells under a semidiurnal tide."""
from __future__ import annotations

import math

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = 300
TILE = 50
HOURS = 25
REPORT_EVERY = 6


@tile.kernel
def tide_step(depth: Partition[f32], elevation: Tensor[f32], drainage: Tensor[f32], sea_level: f32) -> None:
    ground = tile.load_like(elevation, depth)
    drain = tile.load_like(drainage, depth)
    flooded = tile.maximum(sea_level - ground, 0.0)
    current = depth.load()
    depth.store(tile.where(flooded > current, flooded, current * (1.0 - drain)))


def semidiurnal(hour: int, amplitude: float = 1.1, mean: float = 0.2) -> float:
    return mean + amplitude * math.cos(2.0 * math.pi * hour / 12.42)


def marsh_profile(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    distance = np.linspace(0.0, 1.0, CELLS)
    elevation = (-0.4 + 1.6 * distance + rng.normal(0.0, 0.05, CELLS)).astype(np.float32)
    drainage = np.clip(0.15 + 0.3 * distance + rng.normal(0.0, 0.02, CELLS), 0.05, 0.6).astype(np.float32)
    return elevation, drainage


class MarshModel:
    def __init__(self, stream: sk.Stream, seed: int) -> None:
        self.stream = stream
        elev, drain = marsh_profile(seed)
        self.elevation = tile.from_numpy(elev).sync_on(stream)
        self.drainage = tile.from_numpy(drain).sync_on(stream)
        self.depth = tile.zeros((CELLS,), f32).partition((TILE,)).sync_on(stream)
        self.reports: list[tuple[int, float, int]] = []

    def report(self, hour: int, depth: np.ndarray) -> None:
        wet = int((depth > 0.05).sum())
        self.reports.append((hour, float(depth.max()), wet))

    def run(self, hours: int) -> np.ndarray:
        depth, elevation, drainage = self.depth, self.elevation, self.drainage
        for hour in range(hours):
            op = tide_step(depth, elevation, drainage, semidiurnal(hour))
            if hour % REPORT_EVERY == 0:
                snapshot = op.first().unpartition().sync_on(self.stream)
                self.report(hour, snapshot.to_numpy(self.stream))
            depth, elevation, drainage, _ = op.sync_on(self.stream)
        self.depth, self.elevation, self.drainage = depth, elevation, drainage
        return depth.to_numpy(self.stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    model = MarshModel(stream, seed=3)
    final = model.run(HOURS)
    for hour, deepest, wet in model.reports:
        print(f"h{hour:02d}: deepest {deepest:4.2f} m, {wet:3d} wet cells")
    print(f"after {HOURS} h: {int((final > 0.05).sum())} cells still wet")


if __name__ == "__main__":
    main()
