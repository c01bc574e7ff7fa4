# fresh-expect: E0382 at line 55
# fresh-note: A cement kiln campaign runs an autotuned tile burn step from a nonlocal closure that keeps only the temperature with `temp, *_ = ...sync_on()`, so the next shift launches with the fuel tensor the previous shift moved.
"""Cement rotary kiln: an autotuned tile burn step updates the zone temperatures shift by shift from a closure."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ZONES = 512
BLOCK = 128


@tile.autotune(configs=[tile.Config(BLOCK=128), tile.Config(BLOCK=256)], key=["fuel"], warmup=1, rep=2)
@tile.kernel
def burn(temp: Annotated[Partition[f32], tile.Dims(BLOCK)], fuel: Tensor[f32], feed: Tensor[f32], hours: f32) -> None:
    t = temp.load()
    heat = tile.load_like(fuel, temp) * 42.0 - tile.load_like(feed, temp) * 1.7
    temp.store(t + (heat - (t - 1200.0) * 0.08) * hours)


@dataclass(frozen=True)
class Shift:
    crew: str
    hours: float
    coal_tph: float


def clinker_quality(temps: np.ndarray) -> str:
    burning = temps[ZONES // 2 :]
    if burning.min() < 1400.0:
        return "underburnt (free lime)"
    return "overburnt" if burning.max() > 1550.0 else "good"


def run_campaign(stream: sk.Stream, shifts: list[Shift]) -> list[tuple[str, str]]:
    x = np.linspace(0.0, 1.0, ZONES, dtype=np.float32)
    temp = tile.full((ZONES,), 1350.0, f32).sync_on(stream)
    fuel = tile.from_numpy((0.4 + 0.6 * x).astype(np.float32)).sync_on(stream)
    feed = tile.from_numpy((10.0 - 4.0 * x).astype(np.float32)).sync_on(stream)
    report: list[tuple[str, str]] = []

    def run_shift(shift: Shift) -> None:
        nonlocal temp, fuel, feed
        if shift.hours <= 0.0:
            report.append((shift.crew, "kiln on hold"))
            return
        firing = (shift.hours / 8.0) * (shift.coal_tph / 12.0)
        temp, *_ = burn(temp, fuel, feed, firing).sync_on(stream)
        report.append((shift.crew, clinker_quality(temp.to_numpy(stream))))

    for shift in shifts:
        run_shift(shift)
    return report


def main() -> None:
    stream = sk.Device.default().new_stream()
    shifts = [Shift("A", 0.0, 12.0), Shift("B", 8.0, 12.0), Shift("C", 8.0, 12.0), Shift("A", 8.0, 13.5)]
    for crew, verdict in run_campaign(stream, shifts):
        print(f"crew {crew}: {verdict}")


if __name__ == "__main__":
    main()
