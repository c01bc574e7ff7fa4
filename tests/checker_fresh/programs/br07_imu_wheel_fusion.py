# fresh-expect: E0505 at line 76
# fresh-note: the IMU front end keeps its preintegration op pending until `publish`, but `correct` partitions the velocity buffer that op writes for the wheel-odometry blend before the op was flushed.
"""Velocity estimation for a differential-drive robot: IMU preintegration fused with wheel odometry.

The IMU front end turns each batch of accelerometer samples into velocity increments on the device
(a SIMT kernel, queued asynchronously so that the next CAN frame can be decoded meanwhile).  A
complementary filter (a tile kernel) then pulls the integrated velocity toward the wheel-encoder speed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BATCH = 200  # samples per tick at 2 kHz / 10 Hz
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def preintegrate(accel: Slice[f32], v0: f32, bias: f32, dt: f32, vel: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := vel.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(i + 1):
            acc += (accel[k] - bias) * dt
        out.set(v0 + acc)


@tile.kernel
def complementary(vel: Partition[f32], wheel: Tensor[f32], gain: f32) -> None:
    v = vel.load()
    w = tile.load_like(wheel, vel)
    vel.store(v + (w - v) * gain)


@dataclass
class ImuFrontEnd:
    dev: sk.Device
    stream: sk.Stream
    bias: float = 0.02
    dt: float = 1.0 / 2000.0
    pending: list[sk.DeviceOp] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.prepared = preintegrate.prepare(simt.LaunchConfig1D.for_len(BATCH, block=64), self.dev)

    def submit(self, accel: np.ndarray, v0: float) -> sk.DeviceBuffer:
        raw = sk.to_device(accel.astype(np.float32), self.stream)
        vel = sk.zeros(BATCH, f32, self.stream)
        self.pending.append(preintegrate.launch_async(self.prepared, raw, v0, self.bias, self.dt, vel))
        return vel

    def flush(self) -> None:
        while self.pending:
            self.pending.pop(0).sync_on(self.stream)


class VelocityEstimator:
    def __init__(self, dev: sk.Device, stream: sk.Stream, gain: float = 0.2) -> None:
        self.imu = ImuFrontEnd(dev, stream)
        self.stream = stream
        self.gain = gain
        self.v = 0.0
        self.trace: list[float] = []

    def correct(self, vel: sk.DeviceBuffer, wheel_speed: np.ndarray) -> sk.DeviceBuffer:
        parts = vel.partition((TILE,))
        wheel = tile.from_numpy(wheel_speed.astype(np.float32))
        parts, _wheel, _gain = complementary(parts, wheel, self.gain).sync_on(self.stream)
        return sk.as_buffer(parts.unpartition())

    def publish(self, fused: sk.DeviceBuffer) -> None:
        self.imu.flush()
        series = fused.to_numpy(self.stream)
        self.v = float(series[-1])
        self.trace.append(self.v)

    def tick(self, accel: np.ndarray, wheel_speed: np.ndarray) -> float:
        vel = self.imu.submit(accel, self.v)
        fused = self.correct(vel, wheel_speed)
        self.publish(fused)
        return self.v


def drive_profile(ticks: int, seed: int = 11) -> list[tuple[np.ndarray, np.ndarray]]:
    """Accelerate at 0.5 m/s^2 for half the run, then cruise; noisy IMU, quantised encoders."""
    rng = np.random.default_rng(seed)
    t0 = 0.0
    frames = []
    for k in range(ticks):
        t = t0 + np.arange(BATCH) / 2000.0
        a = np.where(k < ticks // 2, 0.5, 0.0) + 0.02 + rng.normal(0, 0.05, BATCH)
        truth = np.minimum(t, ticks * 0.05) * 0.5
        wheel = np.round(truth / 0.01) * 0.01
        frames.append((a, wheel))
        t0 += BATCH / 2000.0
    return frames


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    est = VelocityEstimator(dev, stream)
    for accel, wheel in drive_profile(6):
        est.tick(accel, wheel)
    assert all(b >= a - 0.05 for a, b in zip(est.trace, est.trace[1:])), est.trace
    print("velocity trace:", " ".join(f"{v:.3f}" for v in est.trace))


if __name__ == "__main__":
    main()
