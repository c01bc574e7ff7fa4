# fresh-expect: E0505 at line 81
"""Gyro calibration and complementary-filter fusion for a batch of IMU samples.


The raw gyro rates are bias- and scale-corrected on the SIMT track; the corrected rates are then blended
with accelerometer tilt angles by a tile kernel.  The context manager keeps the calibration launch in
flight while the host prepares the accelerometer angles.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 256
TILE = 256
DT = 0.01
ALPHA = 0.98


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(raw) >= len(rate)",))
def calibrate(raw: Slice[f32], rate: DisjointSlice[f32], bias: f32, scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := rate.get_mut(idx)) is not None:
        out.set((raw[i] - bias) * scale)


@tile.kernel
def complementary(angle: Partition[f32], prev: Tensor[f32], rate: Tensor[f32], tilt: Tensor[f32], alpha: f32) -> None:
    gyro_angle = tile.load_like(prev, angle) + tile.load_like(rate, angle) * DT
    angle.store(alpha * gyro_angle + (1.0 - alpha) * tile.load_like(tilt, angle))


@contextlib.contextmanager
def calibrated(raw: sk.DeviceBuffer, out: sk.DeviceBuffer, prepared, stream: sk.Stream,
               bias: float, scale: float) -> Iterator[sk.DeviceBuffer]:
    op = calibrate.launch_async(prepared, raw, out, bias, scale)
    try:
        yield out
    finally:
        op.sync_on(stream)


def accel_tilt(ax: np.ndarray, az: np.ndarray) -> np.ndarray:
    return np.arctan2(ax, az).astype(np.float32)


def reference(raw: np.ndarray, prev: np.ndarray, tilt: np.ndarray, bias: float, scale: float) -> np.ndarray:
    rate = (raw - np.float32(bias)) * np.float32(scale)
    return np.float32(ALPHA) * (prev + rate * np.float32(DT)) + np.float32(1.0 - ALPHA) * tilt


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(17)
    n = 2_000
    truth = np.cumsum(rng.normal(0.0, 0.002, n)).astype(np.float32)
    gyro_raw = (np.gradient(truth) / DT * 1.02 + 0.015 + rng.normal(0, 0.01, n)).astype(np.float32)
    ax = np.sin(truth) + rng.normal(0, 0.02, n)
    az = np.cos(truth) + rng.normal(0, 0.02, n)
    prev = np.concatenate([[0.0], truth[:-1]]).astype(np.float32)
    bias, scale = 0.015, 1 / 1.02

    prepared = calibrate.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), device)
    raw = sk.to_device(gyro_raw, stream)
    rate = sk.zeros(n, f32, stream)
    with calibrated(raw, rate, prepared, stream, bias, scale) as corrected:
        tilt = accel_tilt(ax, az)
        fused, *_ = complementary(
            tile.zeros((n,), f32).partition((TILE,)), tile.from_numpy(prev), corrected, tile.from_numpy(tilt), ALPHA
        ).sync_on(stream)
    got = fused.unpartition().to_numpy(stream)
    np.testing.assert_allclose(got, reference(gyro_raw, prev, tilt, bias, scale), rtol=1e-4, atol=1e-5)
    err = np.degrees(np.abs(got - truth)).mean()
    print(f"fused {n} IMU samples, mean tilt error {err:.3f} deg")


if __name__ == "__main__":
    main()
