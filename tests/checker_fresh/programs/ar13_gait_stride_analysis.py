# fresh-expect: W0003 at line 39
# fresh-known-miss: cli,mypy W0003 of an op left in a dict comprehension when only some of its ops are zipped and run: an op stored in a container counts as consumed (generous by design)
# fresh-note: wearable gait analysis; one stride op is built per foot sensor, but only the ops of trusted sensors are zipped and run, so the untrusted foot's launch is dropped unrun with the dict.
from __future__ import annotations
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SAMPLES = 128
TILE = (32,)


@tile.kernel
def stride_speed(speed: Partition[f32], accel: Tensor[f32], dt: f32) -> None:
    a = tile.load_like(accel, speed)
    v = tile.cumsum(a, axis=-1) * dt
    speed.store(tile.maximum(v, tile.zeros(speed.tile_shape, f32)))


@dataclass
class FootSensor:
    side: str
    accel: np.ndarray
    battery: float

    @property
    def trusted(self) -> bool:
        return self.battery > 0.15 and float(np.abs(self.accel).max()) < 40.0


def stride_op(sensor: FootSensor, rate_hz: float) -> sk.DeviceOp:
    out = tile.zeros((SAMPLES,), f32).partition(TILE)
    accel = tile.from_numpy(sensor.accel.astype(np.float32))
    return stride_speed(out, accel, 1.0 / rate_hz)


@dataclass
class GaitReport:
    cadence: dict[str, float] = field(default_factory=dict)

    def add(self, side: str, speed: np.ndarray) -> None:
        self.cadence[side] = float((np.diff(np.sign(speed - speed.mean())) > 0).sum())


def analyse(sensors: list[FootSensor], stream: sk.Stream, rate_hz: float = 100.0) -> GaitReport:
    ops = {s.side: stride_op(s, rate_hz) for s in sensors}
    trusted = [s.side for s in sensors if s.trusted]
    report = GaitReport()
    if not trusted:
        return report
    results = sk.zip(*[ops[side] for side in trusted]).sync_on(stream)
    for side, (speed, _accel, _dt) in zip(trusted, results):
        report.add(side, speed.unpartition().to_numpy(stream))
    return report


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(12)
    t = np.arange(SAMPLES) / 100.0
    gait = np.sin(2 * np.pi * 1.8 * t)
    sensors = [
        FootSensor("left", gait + 0.1 * rng.standard_normal(SAMPLES), battery=0.9),
        FootSensor("right", -gait + 0.1 * rng.standard_normal(SAMPLES), battery=0.08),
    ]
    report = analyse(sensors, stream)
    for side, steps in report.cadence.items():
        print(f"{side}: {steps:.0f} crossings in {SAMPLES / 100.0:.2f} s")


if __name__ == "__main__":
    main()
