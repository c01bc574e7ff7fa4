# fresh-expect: E0382 at line 60
# fresh-note: Pretzel tunnel-oven browning model that runs a tile kernel per oven zone on a dataclass tray; the oven's heat map is kept in `self.heat` and the handle sync_on hands back for it is thrown away as `_`, so the next minute's launch passes the already-moved heat op.
"""Crust browning along a pretzel tunnel oven, one tile launch per heating zone."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BELT = 4096
TILE = 512


@tile.kernel
def brown(crust: Partition[f32], dough: Tensor[f32], heat: Tensor[f32], rate: f32) -> None:
    c = crust.load()
    d = tile.load_like(dough, crust)
    h = tile.load_like(heat, crust)
    crust.store(c + (1.0 - c) * h * d * rate)


class Zone(NamedTuple):
    name: str
    rate: float
    minutes: int


@dataclass
class Tray:
    crust: object
    dough: object


def oven_zones(profile: str) -> Iterator[Zone]:
    yield Zone("entry", 0.0, 1)           # conveyor only, burners off
    yield Zone("bake-1", 0.04, 3)
    yield Zone("bake-2", 0.06, 4)
    if profile == "dark":
        yield Zone("finish", 0.09, 2)


class TunnelOven:
    def __init__(self, stream: sk.Stream, profile: str) -> None:
        self.stream = stream
        self.profile = profile
        x = np.linspace(0.0, 1.0, BELT, dtype=np.float32)
        self.heat = tile.from_numpy((0.6 + 0.4 * np.sin(np.pi * x)).astype(np.float32))

    def bake(self, tray: Tray) -> Tray:
        for zone in oven_zones(self.profile):
            if zone.rate <= 0.0:
                continue
            for _minute in range(zone.minutes):
                tray.crust, tray.dough, _, _ = brown(tray.crust, tray.dough, self.heat, zone.rate).sync_on(self.stream)
            print(f"  after {zone.name}: crust {float(tray.crust.to_numpy(self.stream).mean()):.3f}")
        return tray


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(3)
    tray = Tray(
        crust=tile.zeros((BELT,), f32).partition((TILE,)),
        dough=tile.from_numpy(rng.uniform(0.8, 1.0, BELT).astype(np.float32)),
    )
    oven = TunnelOven(stream, profile="dark")
    tray = oven.bake(tray)
    print("mean browning:", float(tray.crust.unpartition().to_numpy(stream).mean()))


if __name__ == "__main__":
    main()
