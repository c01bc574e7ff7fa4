# fresh-expect: E0505 at line 59
# fresh-note: A CNC spindle monitor stores per-axis launch_async ops in a dict keyed by an enum, and for an axis whose peak exceeds the alarm it calls energy() which moves the still-borrowed centered buffer into a tile launch before flush().
"""CNC spindle vibration monitor: de-mean accelerometer axes asynchronously, then square them in a tile pass."""
from __future__ import annotations

from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 256
ALARM_G = 2.4


class Axis(Enum):
    X = "x"
    Y = "y"
    Z = "z"


@simt.kernel
@simt.launch_contract(block=128)
def demean(samples: Slice[f32], out: DisjointSlice[f32], mean: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(samples[i] - mean)


@tile.kernel
def square(z: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, z)
    z.store(t * t)


class SpindleMonitor:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prepared = demean.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
        self.centered = {axis: sk.zeros(N, f32, self.stream) for axis in Axis}
        self.raw: dict[Axis, sk.DeviceBuffer] = {}
        self.inflight: dict[Axis, sk.DeviceOp] = {}

    def submit(self, axis: Axis, samples: np.ndarray) -> None:
        self.raw[axis] = sk.to_device(samples, self.stream)
        self.inflight[axis] = demean.launch_async(self.prepared, self.raw[axis], self.centered[axis], float(samples.mean()))

    def flush(self) -> None:
        for axis in list(self.inflight):
            self.inflight.pop(axis).sync_on(self.stream)

    def energy(self, axis: Axis) -> float:
        out = tile.zeros((N,), f32).partition((32,))
        op = square(out, self.centered[axis])
        sq, self.centered[axis] = op.sync_on(self.stream)
        return float(np.sqrt(sq.unpartition().to_numpy(self.stream).mean()))

    def sweep(self, readings: dict[Axis, np.ndarray]) -> dict[Axis, float]:
        alarms: dict[Axis, float] = {}
        for axis, samples in readings.items():
            self.submit(axis, samples)
            if (peak := float(np.abs(samples - samples.mean()).max())) > ALARM_G:
                print(f"axis {axis.value}: peak {peak:.2f} g, checking energy now")
                alarms[axis] = self.energy(axis)
        self.flush()
        return alarms | {axis: self.energy(axis) for axis in Axis if axis not in alarms}


def spindle_readings(rpm: float) -> dict[Axis, np.ndarray]:
    t = np.arange(N, dtype=np.float32) / 1000.0
    base = np.sin(2 * np.pi * rpm / 60.0 * t).astype(np.float32)
    return {
        Axis.X: 1.0 + 0.8 * base,
        Axis.Y: 0.5 + 1.1 * base,
        Axis.Z: 9.81 + 2.7 * np.sign(base) * base * base,
    }


def main() -> None:
    monitor = SpindleMonitor(sk.Device.default())
    for rpm in (6000.0, 12000.0):
        energies = monitor.sweep({a: v.astype(np.float32) for a, v in spindle_readings(rpm).items()})
        print(rpm, {a.value: round(e, 3) for a, e in energies.items()})


if __name__ == "__main__":
    main()
