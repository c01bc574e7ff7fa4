# fresh-expect: clean
# fresh-note: Simulates the differential quench of a clay-coated blade in water and oil through layers of helpers that each hand back every launch value, with the caller rebinding the blade state; no moved handle is reused.
"""Differential quench of a katana: where the clay is thin the edge cools fast enough to form martensite (the hamon)."""
from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SECTIONS = 256  # samples from edge (0) to spine (255)
TILE = 64


@tile.kernel
def quench_step(temp: Partition[f32], hard: Partition[f32], clay: Tensor[f32], h: f32, bath: f32, dt: f32) -> None:
    t = temp.load()
    c = tile.load_like(clay, temp)
    cooled = t - dt * h * (1.0 - c) * (t - bath)
    rate = t - cooled
    hard.store(tile.maximum(hard.load(), tile.where(rate > 25.0, 1.0, 0.0)))
    temp.store(cooled)


class QuenchMedium(abc.ABC):
    @property
    @abc.abstractmethod
    def heat_transfer(self) -> float: ...

    @property
    def bath_temp(self) -> float:
        return 25.0


class Water(QuenchMedium):
    @property
    def heat_transfer(self) -> float:
        return 0.09


class Oil(QuenchMedium):
    @property
    def heat_transfer(self) -> float:
        return 0.035

    @property
    def bath_temp(self) -> float:
        return super().bath_temp + 35.0


@dataclass
class BladeState:
    temp: Partition[f32]
    hard: Partition[f32]
    clay: Tensor[f32]


class QuenchResult(NamedTuple):
    medium: str
    hamon_width: int
    spine_temp: float


def heat_blade(clay_profile: np.ndarray, stream: sk.Stream) -> BladeState:
    temp = tile.full((SECTIONS,), 800.0, f32).partition((TILE,)).sync_on(stream)
    hard = tile.zeros((SECTIONS,), f32).partition((TILE,)).sync_on(stream)
    return BladeState(temp, hard, tile.from_numpy(clay_profile.astype(np.float32)).sync_on(stream))


def one_step(state: BladeState, medium: QuenchMedium, dt: float, stream: sk.Stream) -> BladeState:
    temp, hard, clay, _, _, _ = quench_step(
        state.temp, state.hard, state.clay, medium.heat_transfer, medium.bath_temp, dt
    ).sync_on(stream)
    return BladeState(temp, hard, clay)


def quench(state: BladeState, medium: QuenchMedium, seconds: int, stream: sk.Stream) -> BladeState:
    for _ in range(seconds):
        state = one_step(state, medium, 1.0, stream)
    return state


def inspect(state: BladeState, medium: QuenchMedium, stream: sk.Stream) -> QuenchResult:
    hard = state.hard.to_numpy(stream)
    temp = state.temp.to_numpy(stream)
    return QuenchResult(type(medium).__name__, int(hard.sum()), float(temp[-1]))


def clay_coat(edge_thin: int) -> np.ndarray:
    coat = np.full(SECTIONS, 0.85, np.float32)
    coat[:edge_thin] = 0.1
    return coat


def main() -> None:
    stream = sk.Device.default().new_stream()
    for medium in (Water(), Oil()):
        blade = heat_blade(clay_coat(edge_thin=48), stream)
        blade = quench(blade, medium, seconds=8, stream=stream)
        result = inspect(blade, medium, stream)
        print(f"{result.medium:6s} hamon {result.hamon_width:3d} sections, spine still {result.spine_temp:6.1f} C")


if __name__ == "__main__":
    main()
