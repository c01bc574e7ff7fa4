# fresh-expect: clean
# fresh-note: Bamboo grove growth model kept in a frozen dataclass that each step rebuilds with dataclasses.replace from every handle the tile launch (chained through a counting `then` callback) hands back; a reporting property reads the culm heights with the borrowing Partition.to_numpy.
"""Daily culm elongation in a bamboo grove (tile kernel, frozen-dataclass state)."""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CULMS = 2048
TILE = 256


@tile.kernel
def elongate(height: Partition[f32], reserve: Partition[f32], rain: Tensor[f32], rate: f32) -> None:
    h = height.load()
    r = reserve.load()
    w = tile.load_like(rain, height)
    used = tile.minimum(r, w * rate)
    height.store(h + used * 0.8)
    reserve.store(r - used + w * 0.05)


@dataclass(frozen=True)
class Grove:
    stream: sk.Stream
    day: int
    height: object    # Partition[f32]
    reserve: object   # Partition[f32]

    @property
    def mean_height(self) -> float:
        return float(self.height.to_numpy(self.stream).mean())


def rainfall(day: int) -> sk.DeviceOp:
    rng = np.random.default_rng(1000 + day)
    return tile.from_numpy(rng.exponential(4.0, CULMS).astype(np.float32))


DAYS_RUN = [0]


def tally_day(values: tuple) -> tuple:
    DAYS_RUN[0] += 1
    return values


def grow_one_day(grove: Grove, rate: float) -> Grove:
    op = elongate(grove.height, grove.reserve, rainfall(grove.day), rate).then(tally_day)
    height, reserve, _rain, _rate = op.sync_on(grove.stream)
    return replace(grove, day=grove.day + 1, height=height, reserve=reserve)


def main() -> None:
    stream = sk.Device.default().new_stream()
    grove = Grove(
        stream=stream,
        day=0,
        height=tile.zeros((CULMS,), f32).partition((TILE,)).sync_on(stream),
        reserve=tile.full((CULMS,), 30.0, f32).partition((TILE,)).sync_on(stream),
    )
    for _ in range(10):
        grove = grow_one_day(grove, rate=0.6)
        if grove.day % 3 == 0:
            print(f"day {grove.day:2d}: mean culm height {grove.mean_height:.2f} cm")
    final = grove.height.unpartition().to_numpy(stream)
    print(f"tallest culm {final.max():.1f} cm after {grove.day} days ({DAYS_RUN[0]} launches)")


if __name__ == "__main__":
    main()
