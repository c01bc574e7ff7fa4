# fresh-expect: clean
# fresh-note: Estuary tidal mixing: a generator yields one lazy tile launch per reach, and every op is chained with `sk.zip(*ops)` and run in one `sync_on` (clean twin of the aquifer program).
"""Estuary salinity: tidal mixing of ocean water against river discharge, reach by reach.

Each reach of the estuary is a grid of cells whose salinity relaxes toward the ocean value by tidal exchange
and is flushed by the river.  A generator builds one lazy tile launch per reach; all of them are chained with
`sk.zip` and run in one `sync_on`, then the salt-wedge extent is read back per reach.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

TILE = 256
OCEAN_PSU = 35.0


@tile.kernel
def tidal_mix(salinity: Partition[f32], exchange: Tensor[f32], flushing: f32, hours: i32) -> None:
    s = salinity.load()
    k = tile.load_like(exchange, salinity)
    for _ in range(hours):
        s = s + k * (OCEAN_PSU - s) - flushing * s
    salinity.store(s)


class Reach(NamedTuple):
    name: str
    cells: int
    distance_km: float
    exchange_rate: float


def reach_ops(reaches: list[Reach], river_m3s: float, rng: np.random.Generator) -> Iterator[sk.DeviceOp]:
    for reach in reaches:
        start = np.full(reach.cells, OCEAN_PSU * np.exp(-reach.distance_km / 15.0), np.float32)
        exchange = (reach.exchange_rate * rng.uniform(0.7, 1.3, reach.cells)).astype(np.float32)
        flushing = 1e-3 * river_m3s / (1.0 + reach.distance_km)
        yield tidal_mix(tile.from_numpy(start).partition((TILE,)), tile.from_numpy(exchange), flushing, 72).first()


def salt_wedge(reaches: list[Reach], river_m3s: float, stream: sk.Stream) -> dict[str, float]:
    rng = np.random.default_rng(int(river_m3s))
    ops = list(reach_ops(reaches, river_m3s, rng))
    salinity = sk.zip(*ops).sync_on(stream)
    return {
        reach.name: float((part.unpartition().to_numpy(stream) > 10.0).mean())  # mesohaline and saltier
        for reach, part in zip(reaches, salinity)
    }


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    reaches = [
        Reach("mouth", 1024, 2.0, 0.08),
        Reach("lower", 2048, 12.0, 0.03),
        Reach("middle", 2048, 25.0, 0.01),
        Reach("upper", 1024, 40.0, 0.003),
    ]
    for season, river in (("low flow", 40.0), ("spring flood", 900.0)):
        wedge = salt_wedge(reaches, river, stream)
        summary = "  ".join(f"{name} {frac:4.0%}" for name, frac in wedge.items())
        print(f"{season:<12} ({river:5.0f} m3/s): salt-wedge cells {summary}")


if __name__ == "__main__":
    main()
