# fresh-expect: clean
# fresh-note: Simulates sauna humidity after each ladle of loyly inside a session context manager that rebinds its tensors from every sync_on and ventilates through a .first() chain on exit; nothing is used after a move.
"""Sauna loyly: relative humidity across the bench heights after each ladle of water on the stones."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

LEVELS = 128  # vertical samples from floor to ceiling


@tile.kernel
def steam_burst(rh: Partition[f32], temp: Tensor[f32], ladle: f32) -> None:
    t = tile.load_like(temp, rh)
    rise = ladle * 12.0 * (t / 100.0) * (t / 100.0)
    rh.store(tile.minimum(rh.load() + rise, 100.0))


@tile.kernel
def ventilate(rh: Partition[f32], rate: f32) -> None:
    rh.store(rh.load() * (1.0 - rate))


@dataclass(frozen=True)
class Stove:
    stone_kg: float
    temp_floor: float
    temp_ceiling: float

    def profile(self) -> np.ndarray:
        return np.linspace(self.temp_floor, self.temp_ceiling, LEVELS, dtype=np.float32)


class Session:
    def __init__(self, stove: Stove, stream: sk.Stream, start_rh: float = 8.0) -> None:
        self.stove = stove
        self.stream = stream
        self.start_rh = start_rh
        self.rh: Partition[f32] | None = None
        self.temp: Tensor[f32] | None = None
        self.readings: list[float] = []

    def __enter__(self) -> "Session":
        self.rh = tile.full((LEVELS,), self.start_rh, f32).partition((32,)).sync_on(self.stream)
        self.temp = tile.from_numpy(self.stove.profile()).sync_on(self.stream)
        return self

    def throw_water(self, ladle: float, spread: float = 1.0) -> float:
        scaled = ladle * spread * self.stove.stone_kg / 40.0
        self.rh, self.temp, _ = steam_burst(self.rh, self.temp, scaled).sync_on(self.stream)
        bench = float(self.rh.to_numpy(self.stream)[LEVELS * 3 // 4])
        self.readings.append(bench)
        return bench

    def __exit__(self, *exc: object) -> None:
        self.rh = ventilate(self.rh, 0.4).first().sync_on(self.stream)
        self.readings.append(float(self.rh.to_numpy(self.stream)[LEVELS * 3 // 4]))


def ladle_schedule(rounds: int, base: float) -> Iterator[float]:
    for r in range(rounds):
        yield base * (1.0 + 0.25 * r)


def evening(stove: Stove, stream: sk.Stream) -> list[float]:
    with Session(stove, stream) as session:
        throw = functools.partial(session.throw_water, spread=0.85)
        for ladle in ladle_schedule(4, base=0.5):
            throw(ladle)
    return session.readings


def main() -> None:
    stream = sk.Device.default().new_stream()
    stoves = {"wood-fired": Stove(60.0, 40.0, 105.0), "electric": Stove(25.0, 35.0, 90.0)}
    for name, stove in stoves.items():
        readings = evening(stove, stream)
        trail = " -> ".join(f"{r:5.1f}" for r in readings)
        print(f"{name:10s} upper-bench RH %: {trail}")


if __name__ == "__main__":
    main()
