# fresh-expect: E0382 at line 41
# fresh-note: Sourdough starter rise model run over feeding cycles; the per-cycle helper hands back only rise and temperature and drops the returned hydration tensor, so the next cycle passes the moved hydration tensor to the launch again.
"""Sourdough starter: jar rise under temperature and hydration, fed once per cycle."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 16
RATE = 0.045


@tile.kernel
def ferment(rise: Partition[f32], temperature: Tensor[f32], hydration: Tensor[f32], hours: f32) -> None:
    h = rise.load()
    warmth = tile.exp((tile.load_like(temperature, rise) - 24.0) * 0.08)
    wet = tile.load_like(hydration, rise) * 0.01
    grown = h + RATE * warmth * wet * hours * (3.0 - h)
    rise.store(tile.minimum(grown, 3.0))


@tile.kernel
def discard(rise: Partition[f32], keep: f32) -> None:
    rise.store(1.0 + (rise.load() - 1.0) * keep)


class Kitchen(NamedTuple):
    temperature: np.ndarray
    hydration: np.ndarray


def feed_cycle(rise: Partition, temperature: Tensor, hydration: Tensor, stream: sk.Stream,
               hours: float) -> tuple[Partition, Tensor]:
    rise, temperature, _, _ = ferment(rise, temperature, hydration, hours).sync_on(stream)
    peak = float(rise.to_numpy(stream).max())
    rise, _ = discard(rise, 0.5).sync_on(stream)
    print(f"  peak rise x{peak:.2f} before discard")
    return rise, temperature


def make_kitchen(jars: int, seed: int) -> Kitchen:
    rng = np.random.default_rng(seed)
    temperature = rng.uniform(19.0, 28.0, jars).astype(np.float32)
    hydration = rng.choice([60.0, 75.0, 100.0], jars).astype(np.float32)
    return Kitchen(temperature, hydration)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    jars = 40
    kitchen = make_kitchen(jars, seed=11)
    rise = tile.full((jars,), 1.0, f32).partition((TILE,))
    temperature = tile.from_numpy(kitchen.temperature)
    hydration = tile.from_numpy(kitchen.hydration)
    for day in range(4):
        print(f"day {day}")
        rise, temperature = feed_cycle(rise, temperature, hydration, stream, hours=12.0)
    final = rise.unpartition().to_numpy(stream)
    best = int(np.argmax(final))
    print(f"most active jar #{best}: hydration {kitchen.hydration[best]:.0f}%, {kitchen.temperature[best]:.1f} C")


if __name__ == "__main__":
    main()
