# fresh-expect: clean
# fresh-note: Bonsai collection watering planner that dispatches each tray's soil-moisture update through a match on the care mode, running the optional misting op only on the path that built it.
"""Bonsai collection: daily soil-moisture bookkeeping per tray with watering, misting and drying."""

from __future__ import annotations

from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 8


class Care(Enum):
    WATER = "water"
    MIST = "mist"
    DRY_OUT = "dry"


@tile.kernel
def evaporate(moisture: Partition[f32], exposure: Tensor[f32], hours: f32) -> None:
    m = moisture.load()
    moisture.store(m * tile.exp(-0.02 * hours * tile.load_like(exposure, moisture)))


@tile.kernel
def add_water(moisture: Partition[f32], capacity: Tensor[f32], litres: f32) -> None:
    m = moisture.load()
    moisture.store(tile.minimum(m + litres / tile.load_like(capacity, moisture), 1.0))


class Tray:
    def __init__(self, name: str, trees: int, exposure: float, rng: np.random.Generator) -> None:
        self.name = name
        self.moisture = tile.from_numpy(rng.uniform(0.3, 0.6, trees).astype(np.float32)).partition((TILE,))
        self.exposure = tile.from_numpy(np.full(trees, exposure, np.float32))
        self.capacity = tile.from_numpy(rng.uniform(0.8, 2.5, trees).astype(np.float32))


def tend(tray: Tray, care: Care, stream: sk.Stream) -> np.ndarray:
    tray.moisture, tray.exposure, _ = evaporate(tray.moisture, tray.exposure, 24.0).sync_on(stream)
    misting = None
    match care:
        case Care.WATER:
            tray.moisture, tray.capacity, _ = add_water(tray.moisture, tray.capacity, 0.5).sync_on(stream)
        case Care.MIST:
            misting = add_water(tray.moisture, tray.capacity, 0.05)
        case Care.DRY_OUT:
            pass
    if misting is not None:
        tray.moisture, tray.capacity, _ = misting.sync_on(stream)
    return tray.moisture.to_numpy(stream)


def plan(moisture: np.ndarray) -> Care:
    if moisture.min() < 0.25:
        return Care.WATER
    if moisture.mean() < 0.45:
        return Care.MIST
    return Care.DRY_OUT


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(8)
    trays = [Tray("juniper bench", 12, 1.4, rng), Tray("maple shade", 20, 0.7, rng), Tray("pine sun", 9, 1.8, rng)]
    care = {tray.name: Care.MIST for tray in trays}
    for day in range(1, 6):
        for tray in trays:
            moisture = tend(tray, care[tray.name], stream)
            care[tray.name] = plan(moisture)
        print(f"day {day}: " + ", ".join(f"{name} -> {c.value}" for name, c in care.items()))


if __name__ == "__main__":
    main()
