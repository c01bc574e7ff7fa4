# fresh-expect: E0382 at line 46
# idiom: tile launch captured once with graph_on and replayed per tick; readings use the handle that was moved into the graph
"""Simulate a building's room temperatures relaxing toward their thermostat setpoints.

Every tick, each room moves a fixed fraction of the way from its current temperature to its
setpoint.  The per-tick update is one tile launch; since it is identical every tick it is captured
once as a replayable graph, and the simulation just replays it and logs a reading now and then.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 64


@tile.kernel
def relax(temps: Partition[f32], setpoint: Tensor[f32], rate: f32) -> None:
    t = temps.load()
    temps.store(t + (tile.load_like(setpoint, temps) - t) * rate)


class Building:
    def __init__(self, initial: np.ndarray, setpoints: np.ndarray, rate: float, device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.rooms = len(initial)
        self.temps = tile.from_numpy(initial.astype(np.float32)).partition((TILE,)).sync_on(self.stream)
        self.setpoint = tile.from_numpy(setpoints.astype(np.float32)).sync_on(self.stream)
        self.rate = rate
        self.graph: Any = None

    def capture(self) -> None:
        self.graph = relax(self.temps, self.setpoint, self.rate).graph_on(self.stream)

    def tick(self) -> None:
        self.graph.replay()

    def reading(self) -> np.ndarray:
        return self.temps.to_numpy(self.stream)


def simulate(building: Building, ticks: int, log_every: int) -> list[float]:
    building.capture()
    log: list[float] = []
    for t in range(1, ticks + 1):
        building.tick()
        if t % log_every == 0:
            log.append(float(building.reading().mean()))
    return log


def main() -> None:
    rng = np.random.default_rng(4)
    rooms = 200
    initial = rng.uniform(12.0, 18.0, rooms)
    setpoints = rng.choice([19.0, 21.0, 22.5], rooms)
    building = Building(initial, setpoints, rate=0.1, device=sk.Device.cpu())
    log = simulate(building, ticks=30, log_every=10)
    print("mean temperature every 10 ticks:", [round(v, 2) for v in log])
    print("mean setpoint:", round(float(setpoints.mean()), 2))


if __name__ == "__main__":
    main()
