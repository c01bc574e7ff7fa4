# fresh-expect: E0133 at line 56
# fresh-note: IMU complementary filter whose `FastLauncher.fire` calls `launch_unchecked` without its own unsafe block; the caller's `with simt.unsafe():` around `launcher.fire(...)` does not cover it because unsafe is lexical.
"""IMU sensor fusion: a complementary filter blending gyro-integrated and accelerometer tilt angles.

Each thread handles one IMU in a fleet of sensors.  The filter runs many times per second, so the hot loop
uses a `FastLauncher` that skips the per-launch contract checks with `launch_unchecked` (the configuration was
validated once with `prepare` when the launcher was built).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def complementary(
    gyro_rate: Slice[f32], accel_x: Slice[f32], accel_z: Slice[f32], angle: DisjointSlice[f32], alpha: f32, dt: f32
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (a := angle.get_mut(idx)) is not None:
        accel_angle = math.atan2(accel_x[i], accel_z[i])
        a.set(alpha * (a.get() + gyro_rate[i] * dt) + (1.0 - alpha) * accel_angle)


@dataclass
class ImuFrame:
    gyro_rate: np.ndarray
    accel_x: np.ndarray
    accel_z: np.ndarray


class FastLauncher:
    """Validates a configuration once, then launches without re-checking it."""

    def __init__(self, kernel: Any, n: int, dev: sk.Device, stream: sk.Stream) -> None:
        self.kernel = kernel
        self.stream = stream
        self.config = simt.LaunchConfig1D.for_len(n, block=BLOCK)
        kernel.prepare(self.config, dev)  # raises if the configuration breaks the contract
        self.count = 0

    def fire(self, *args: Any) -> None:
        self.kernel.launch_unchecked(self.config, self.stream, *args)
        self.count += 1


def frames(n_sensors: int, steps: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    true_angle = np.linspace(-0.4, 0.4, n_sensors).astype(np.float32)
    for _ in range(steps):
        noise = rng.standard_normal(n_sensors).astype(np.float32)
        yield ImuFrame(
            gyro_rate=(0.02 * noise).astype(np.float32),
            accel_x=np.sin(true_angle + 0.05 * noise).astype(np.float32),
            accel_z=np.cos(true_angle).astype(np.float32),
        ), true_angle


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 96
    alpha, dt = 0.9, 0.01
    angle = sk.zeros(n, f32, stream)
    launcher = FastLauncher(complementary, n, dev, stream)
    host_angle = np.zeros(n, np.float32)
    truth = None
    for frame, truth in frames(n, steps=40):
        gyro = sk.to_device(frame.gyro_rate, stream)
        ax = sk.to_device(frame.accel_x, stream)
        az = sk.to_device(frame.accel_z, stream)
        with simt.unsafe():  # the launcher's config was validated by prepare() above
            launcher.fire(gyro, ax, az, angle, alpha, dt)
        accel = np.arctan2(frame.accel_x, frame.accel_z)
        host_angle = alpha * (host_angle + frame.gyro_rate * dt) + (1 - alpha) * accel
    got = angle.to_numpy(stream)
    np.testing.assert_allclose(got, host_angle, rtol=1e-3, atol=1e-4)
    assert truth is not None
    print(f"{launcher.count} launches, max |angle - truth| = {float(np.abs(got - truth).max()):.4f} rad")
    print("imu fusion ok")


if __name__ == "__main__":
    main()
