# fresh-expect: E0499 at line 64
# fresh-note: Rowing ergometer stroke analysis that splits handle force into drive and recovery traces; both traces come from a size-keyed workspace cache, so the same buffer is passed as both mutable outputs of one launch.
"""Rowing ergometer: split handle force into drive and recovery phases and report per-stroke work."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def split_phases(force: Slice[f32], velocity: Slice[f32], drive: DisjointSlice[f32],
                 recovery: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(force):
        pushing = velocity[i] > f32(0.0)
        power = force[i] * velocity[i]
        d = thread.index_1d()
        if (o := drive.get_mut(d)) is not None:
            if pushing:
                o.set(power)
            else:
                o.set(f32(0.0))
        r = thread.index_1d()
        if (o2 := recovery.get_mut(r)) is not None:
            if pushing:
                o2.set(f32(0.0))
            else:
                o2.set(power)


class StrokeAnalyzer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, samples: int, hz: float) -> None:
        self.dev = dev
        self.stream = stream
        self.samples = samples
        self.dt = 1.0 / hz
        self._workspace: dict[tuple[int, str], sk.DeviceBuffer] = {}
        self._prepared = split_phases.prepare(simt.LaunchConfig1D.for_len(samples, block=BLOCK), dev)

    def _buffer(self, length: int, kind: str = "f32") -> sk.DeviceBuffer:
        key = (length, kind)
        if key not in self._workspace:
            self._workspace[key] = sk.zeros(length, f32, self.stream)
        return self._workspace[key]

    def drive_trace(self) -> sk.DeviceBuffer:
        return self._buffer(self.samples)

    def recovery_trace(self) -> sk.DeviceBuffer:
        return self._buffer(self.samples)

    def analyse(self, force: np.ndarray, velocity: np.ndarray) -> dict[str, float]:
        f = sk.to_device(force.astype(np.float32), self.stream)
        v = sk.to_device(velocity.astype(np.float32), self.stream)
        drive, recovery = self.drive_trace(), self.recovery_trace()
        split_phases.launch(self._prepared, self.stream, f, v, drive, recovery)
        return {
            "drive_j": float(drive.to_numpy(self.stream).sum() * self.dt),
            "recovery_j": float(recovery.to_numpy(self.stream).sum() * self.dt),
        }


def synthetic_session(samples: int, hz: float, rate_spm: float) -> tuple[np.ndarray, np.ndarray]:
    t = np.arange(samples) / hz
    phase = np.sin(2 * np.pi * rate_spm / 60.0 * t)
    force = np.clip(phase, 0.0, None) * 800.0 + 40.0
    velocity = phase * 1.6
    return force, velocity


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    hz = 50.0
    analyzer = StrokeAnalyzer(dev, stream, samples=500, hz=hz)
    for rate in (20.0, 24.0, 28.0):
        force, velocity = synthetic_session(500, hz, rate)
        work = analyzer.analyse(force, velocity)
        print(f"{rate:.0f} spm: drive {work['drive_j']:.0f} J, recovery {work['recovery_j']:.0f} J")


if __name__ == "__main__":
    main()
