# fresh-expect: clean
# fresh-note: Canal lock flight scheduler that matches on each lock's state before building any launch (closed locks are skipped before anything moves), takes a single lock's level with `.first()`, and replays a captured graph of the fill step for the locks that cycle several times.
"""Water levels in a flight of canal locks: fill cycles captured once, replayed per boat."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = 512       # along-chamber sampling of the water surface
TILE = 128


@tile.kernel
def fill_step(level: Partition[f32], upstream: Tensor[f32], gate: f32) -> None:
    h = level.load()
    up = tile.load_like(upstream, level)
    level.store(h + (up - h) * gate)


@dataclass
class Lock:
    name: str
    state: str
    boats: int
    head_m: float


def chamber(head_m: float) -> sk.DeviceOp:
    return tile.full((CELLS,), head_m - 3.5, f32)


def upstream_pool(head_m: float) -> sk.DeviceOp:
    ripple = 0.02 * np.sin(np.linspace(0.0, 6.0, CELLS)).astype(np.float32)
    return tile.from_numpy((head_m + ripple).astype(np.float32))


def run_flight(locks: list[Lock], stream: sk.Stream) -> dict[str, float]:
    levels: dict[str, float] = {}
    for lock in locks:
        match lock.state:
            case "closed":
                continue  # stoppage: nothing is launched for this lock
            case "single":
                level = fill_step(chamber(lock.head_m).partition((TILE,)), upstream_pool(lock.head_m), 0.35).first().sync_on(stream)
            case "cycling":
                op = fill_step(chamber(lock.head_m).partition((TILE,)), upstream_pool(lock.head_m), 0.35)
                graph = op.graph_on(stream)
                for _boat in range(lock.boats):
                    graph.replay()
                level, _up, _gate = graph.value
            case _:
                raise ValueError(f"unknown lock state {lock.state!r}")
        levels[lock.name] = float(level.to_numpy(stream).mean())
    return levels


def main() -> None:
    stream = sk.Device.default().new_stream()
    flight = [
        Lock("Lock 1", "cycling", 4, 12.0),
        Lock("Lock 2", "closed", 0, 15.5),
        Lock("Lock 3", "single", 1, 19.0),
    ]
    for name, level in run_flight(flight, stream).items():
        print(f"{name}: mean level {level:.2f} m")


if __name__ == "__main__":
    main()
