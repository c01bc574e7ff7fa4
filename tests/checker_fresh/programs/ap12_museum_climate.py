# fresh-expect: clean
# fresh-note: Museum gallery climate monitor; prepared launches live in a registry built by a dict comprehension and are exposed through properties, each property returning the launch its own kernel prepared.
"""Dew point and mould-growth risk for the sensors of a museum's galleries."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.dtypes import f32

MAGNUS_B = 17.62
MAGNUS_C = 243.12


@simt.kernel
@simt.launch_contract(block=128)
def dew_point(temp: Slice[f32], rh: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        gamma = math.log(rh[i] / 100.0) + MAGNUS_B * temp[i] / (MAGNUS_C + temp[i])
        o.set(MAGNUS_C * gamma / (MAGNUS_B - gamma))


@simt.kernel
@simt.launch_contract(block=256)
def mold_risk(temp: Slice[f32], rh: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        # growth isopleth: the critical humidity falls as the room warms
        critical = 80.0 - 0.5 * (temp[i] - 20.0)
        o.set(max(rh[i] - critical, 0.0) / 20.0)


KERNELS = {"dew_point": dew_point, "mold_risk": mold_risk}
BLOCKS = {"dew_point": 128, "mold_risk": 256}


@dataclass
class Reading:
    hour: int
    temp: np.ndarray
    rh: np.ndarray


class GalleryMonitor:
    def __init__(self, dev: sk.Device, stream: sk.Stream, sensors: int) -> None:
        self.stream = stream
        self.sensors = sensors
        self._plans = {
            name: kernel.prepare(simt.LaunchConfig1D.for_len(sensors, block=BLOCKS[name]), dev)
            for name, kernel in KERNELS.items()
        }
        self.dew = sk.zeros(sensors, f32, stream)
        self.risk = sk.zeros(sensors, f32, stream)

    @property
    def dew_launch(self):
        return self._plans["dew_point"]

    @property
    def mold_launch(self):
        return self._plans["mold_risk"]

    def assess(self, reading: Reading) -> dict[str, float]:
        temp = sk.to_device(reading.temp, self.stream)
        rh = sk.to_device(reading.rh, self.stream)
        dew_point.launch(self.dew_launch, self.stream, temp, rh, self.dew)
        mold_risk.launch(self.mold_launch, self.stream, temp, rh, self.risk)
        dew, risk = self.dew.to_numpy(self.stream), self.risk.to_numpy(self.stream)
        margin = reading.temp - dew
        return {"hour": reading.hour, "min_margin_c": float(margin.min()), "max_risk": float(risk.max()),
                "at_risk": int((risk > 0.1).sum())}


def hourly_readings(sensors: int, hours: int, seed: int = 5) -> Iterator[Reading]:
    rng = np.random.default_rng(seed)
    for hour in range(hours):
        temp = 19.5 + 1.5 * math.sin(hour / 24 * 2 * math.pi) + rng.normal(0, 0.3, sensors)
        rh = 55.0 + 30.0 * (hour >= 14) * rng.random(sensors) + rng.normal(0, 2.0, sensors)
        yield Reading(hour, temp.astype(np.float32), np.clip(rh, 5.0, 99.0).astype(np.float32))


def main() -> None:
    dev = sk.Device.cpu()
    monitor = GalleryMonitor(dev, dev.new_stream(), sensors=300)
    alerts = []
    for reading in hourly_readings(monitor.sensors, hours=24):
        report = monitor.assess(reading)
        if report["at_risk"] or report["min_margin_c"] < 3.0:
            alerts.append(report)
    print(f"{len(alerts)} alert hours")
    for a in alerts[:3]:
        print(f"  hour {a['hour']:2d}: {a['at_risk']} sensors at risk, dew margin {a['min_margin_c']:.1f} C")


if __name__ == "__main__":
    main()
