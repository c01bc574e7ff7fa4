# fresh-expect: clean
# fresh-note: Bike-share dock rebalancing over a day with a tile kernel per hour; the dock capacity map is a `.shared()` op that every hour's launch may read again, and the loop stops early once the network gets too lopsided.
"""Hourly bike-share dock rebalancing with a tile kernel."""
from __future__ import annotations

import functools

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

DOCKS = 2048
TILE = 256


@tile.kernel
def rebalance(bikes: Partition[f32], demand: Tensor[f32], capacity: Tensor[f32]) -> None:
    b = bikes.load()
    d = tile.load_like(demand, bikes)
    cap = tile.load_like(capacity, bikes)
    moved = b - d
    bikes.store(tile.minimum(tile.maximum(moved, 0.0), cap))


@functools.lru_cache(maxsize=None)
def hourly_profile(hour: int) -> np.ndarray:
    rng = np.random.default_rng(hour)
    peak = 3.0 if hour in (8, 9, 17, 18) else 0.5
    return (rng.normal(0.0, 1.0, DOCKS) * peak).astype(np.float32)


def demand_for(hour: int) -> sk.DeviceOp:
    return tile.from_numpy(hourly_profile(hour))


def imbalance(bikes_np: np.ndarray, cap_np: np.ndarray) -> float:
    return float(np.abs(bikes_np / cap_np - 0.5).mean())


def run_day(stream: sk.Stream) -> tuple[int, float]:
    cap_np = np.random.default_rng(99).integers(12, 40, DOCKS).astype(np.float32)
    capacity = tile.from_numpy(cap_np).shared()          # read by every hour's launch
    bikes = tile.from_numpy(cap_np * 0.5).partition((TILE,))
    score = 1.0
    hour = 0
    for hour in range(24):
        bikes, _demand, _cap = rebalance(bikes, demand_for(hour), capacity).sync_on(stream)
        score = imbalance(bikes.to_numpy(stream), cap_np)
        if score > 0.12:
            break  # too lopsided: dispatch a rebalancing truck instead
    return hour, score


def main() -> None:
    stream = sk.Device.default().new_stream()
    hour, score = run_day(stream)
    print(f"stopped after hour {hour}, imbalance {score:.3f}")


if __name__ == "__main__":
    main()
