# fresh-expect: clean
# fresh-note: Paces sled-dog teams over race legs with functools.partial binding only scalars, a generator of legs and sk.zip running both teams' launches together; every partition and tensor is rebound from the values sync_on hands back.
"""Sled-dog racing: per-dog speed and fatigue over the legs of a mid-distance race, two teams side by side."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

DOGS = 64  # per team, padded: wheel, team, swing and lead dogs
TILE = 16


@tile.kernel
def pace(speed: Partition[f32], fatigue: Tensor[f32], terrain: f32, target: f32) -> None:
    f = tile.load_like(fatigue, speed)
    speed.store(target * terrain * (1.0 - f))


@tile.kernel
def tire(fatigue: Partition[f32], speed: Tensor[f32], rate: f32) -> None:
    s = tile.load_like(speed, fatigue)
    fatigue.store(tile.minimum(fatigue.load() + rate * s / 20.0, 0.9))


@dataclass(frozen=True)
class Leg:
    name: str
    km: float
    terrain: float  # 1.0 packed trail, < 1 soft snow or climbing


@dataclass
class Team:
    musher: str
    target_kmh: float
    speed: Partition[f32]
    fatigue: Tensor[f32]
    elapsed_h: float = 0.0

    @classmethod
    def fresh(cls, musher: str, target_kmh: float, stream: sk.Stream) -> "Team":
        speed = tile.zeros((DOGS,), f32).partition((TILE,)).sync_on(stream)
        fatigue = tile.from_numpy(np.linspace(0.0, 0.1, DOGS, dtype=np.float32)).sync_on(stream)
        return cls(musher, target_kmh, speed, fatigue)


def course() -> Iterator[Leg]:
    yield Leg("river ice", 40.0, 1.0)
    yield Leg("burn climb", 28.0, 0.7)
    yield Leg("open tundra", 55.0, 0.9)


def _recover(team: Team, rate: float, stream: sk.Stream) -> None:
    fat_p = team.fatigue.partition((TILE,))
    speed_t = team.speed.unpartition()
    fat_p, speed_t, _ = tire(fat_p, speed_t, rate).sync_on(stream)
    team.fatigue = fat_p.unpartition()
    team.speed = speed_t.partition((TILE,))


def run_leg(a: Team, b: Team, leg: Leg, stream: sk.Stream, rate: float) -> None:
    both = sk.zip(pace(a.speed, a.fatigue, leg.terrain, a.target_kmh), pace(b.speed, b.fatigue, leg.terrain, b.target_kmh))
    (a.speed, a.fatigue, _, _), (b.speed, b.fatigue, _, _) = both.sync_on(stream)
    for team in (a, b):
        mean_speed = float(team.speed.to_numpy(stream).mean())
        team.elapsed_h += leg.km / max(mean_speed, 1.0)
        _recover(team, rate, stream)


def race(a: Team, b: Team, stream: sk.Stream) -> list[str]:
    leg_runner = functools.partial(run_leg, stream=stream, rate=0.12)
    log = []
    for leg in course():
        leg_runner(a, b, leg)
        log.append(f"{leg.name:12s} {a.musher}: {a.elapsed_h:5.2f} h  {b.musher}: {b.elapsed_h:5.2f} h")
    return log


def main() -> None:
    stream = sk.Device.default().new_stream()
    a = Team.fresh("Aput", 16.0, stream)
    b = Team.fresh("Freya", 14.5, stream)
    for line in race(a, b, stream):
        print(line)
    leader = min((a, b), key=lambda t: t.elapsed_h)
    print(f"leader after {len(list(course()))} legs: {leader.musher}, lead dog fatigue {leader.fatigue.to_numpy(stream)[-1]:.2f}")


if __name__ == "__main__":
    main()
