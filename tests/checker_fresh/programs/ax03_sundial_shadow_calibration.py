# fresh-expect: clean
# fresh-note: Calibrates a sundial's hour lines per season with a generator of output partitions and a shared latitude table passed twice to one launch, which shared storage allows; every moved value is taken back from sync_on.
"""Sundial calibration: shadow-tip offsets of the hour lines, corrected by the equation of time per season."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

HOURS = 12
SAMPLES = 128


class Season(enum.Enum):
    WINTER = "winter"
    EQUINOX = "equinox"
    SUMMER = "summer"


@dataclass(frozen=True)
class GnomonSpec:
    height_mm: float
    latitude_deg: float

    @property
    def tan_lat(self) -> float:
        return float(np.tan(np.radians(self.latitude_deg)))


@tile.kernel
def shadow_offset(out: Partition[f32], angle: Tensor[f32], weight: Tensor[f32], bias: Tensor[f32], h: f32) -> None:
    a = tile.load_like(angle, out)
    w = tile.load_like(weight, out)
    b = tile.load_like(bias, out)
    out.store(a * w * h + b)


@tile.kernel
def eot_correct(out: Partition[f32], eot: f32) -> None:
    out.store(out.load() + eot)


EQUATION_OF_TIME: dict[Season, Callable[[float], float]] = {
    Season.WINTER: lambda day: 9.9 * np.sin(2 * np.pi * day / 365.0),
    Season.EQUINOX: lambda day: -7.5 * np.sin(2 * np.pi * (day - 81) / 365.0),
    Season.SUMMER: lambda day: 3.2 * np.cos(2 * np.pi * day / 365.0),
}

DAY_OF_SEASON = {Season.WINTER: 355, Season.EQUINOX: 80, Season.SUMMER: 172}


def hour_partitions(count: int) -> Iterator[tuple[int, Partition[f32]]]:
    """Hands out one fresh output partition per hour line."""
    for hour in range(count):
        yield hour, tile.zeros((SAMPLES,), f32).partition((32,)).sync()


class Dial:
    def __init__(self, spec: GnomonSpec, stream: sk.Stream) -> None:
        self.spec = spec
        self.stream = stream
        ramp = np.linspace(-1.0, 1.0, SAMPLES, dtype=np.float32) * np.float32(spec.tan_lat)
        self.lat_table = tile.from_numpy(ramp).shared()

    def hour_line(self, hour: int, part: Partition[f32], season: Season) -> np.ndarray:
        angle = tile.full((SAMPLES,), np.radians(15.0 * (hour - 6)), f32)
        # the latitude table is both the weight and the bias term: shared storage may appear twice
        part, angle, w, b, _ = shadow_offset(part, angle, self.lat_table, self.lat_table, self.spec.height_mm).sync_on(self.stream)
        eot = EQUATION_OF_TIME[season](DAY_OF_SEASON[season])
        part, _ = eot_correct(part, eot * 0.25).sync_on(self.stream)
        return part.unpartition().to_numpy(self.stream)

    def calibrate(self, season: Season) -> np.ndarray:
        lines = np.zeros((HOURS, SAMPLES), np.float32)
        for hour, part in hour_partitions(HOURS):
            lines[hour] = self.hour_line(hour, part, season)
        return lines


def summarize(table: dict[Season, np.ndarray]) -> None:
    for season, lines in table.items():
        noon = lines[6]
        print(f"{season.value:8s} noon spread {noon.max() - noon.min():8.2f} mm, morning mean {lines[:6].mean():8.2f}")


def main() -> None:
    stream = sk.Device.default().new_stream()
    dial = Dial(GnomonSpec(height_mm=120.0, latitude_deg=51.5), stream)
    table = {season: dial.calibrate(season) for season in Season}
    summarize(table)


if __name__ == "__main__":
    main()
