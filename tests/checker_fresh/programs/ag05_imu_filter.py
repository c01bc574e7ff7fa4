# fresh-expect: clean
# IMU complementary filter as a stage object: async SIMT blend per sample, synced before a tile clamp publishes it
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

SAMPLES = 512
TILE = 64


@simt.kernel
@simt.launch_contract(block=128)
def complementary(gyro_angle: Slice[f32], accel_angle: Slice[f32], fused: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := fused.get_mut(idx)) is not None:
        out.set(alpha * gyro_angle[i] + (1.0 - alpha) * accel_angle[i])


@tile.kernel
def clamp_tilt(out: Partition[f32], limit: f32) -> None:
    out.store(tile.minimum(tile.maximum(out.load(), -limit), limit))


class TiltEstimator:
    def __init__(self, dev: sk.Device, stream: sk.Stream, alpha: float) -> None:
        self.stream = stream
        self.alpha = alpha
        self.prepared = complementary.prepare(simt.LaunchConfig1D.for_len(SAMPLES, block=128), dev)
        self.fused = sk.zeros(SAMPLES, f32, stream)
        self.pending: sk.DeviceOp | None = None

    def start(self, gyro: np.ndarray, accel: np.ndarray) -> None:
        g = sk.to_device(gyro, self.stream)
        a = sk.to_device(accel, self.stream)
        self.pending = complementary.launch_async(self.prepared, g, a, self.fused, self.alpha)

    def finish(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def publish(self, limit: float) -> np.ndarray:
        parts = self.fused.partition((TILE,))
        parts, _ = clamp_tilt(parts, limit).sync_on(self.stream)
        self.fused = parts.unpartition()
        return self.fused.to_numpy(self.stream)


def integrate_gyro(rates: np.ndarray, dt: float) -> np.ndarray:
    return np.cumsum(rates * dt).astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    est = TiltEstimator(dev, stream, alpha=0.98)
    t = np.linspace(0.0, 2.0, SAMPLES, dtype=np.float32)
    truth = (0.4 * np.sin(2 * np.pi * 0.5 * t)).astype(np.float32)
    for burst in range(3):
        rates = np.gradient(truth, t).astype(np.float32) + rng.normal(0, 0.05, SAMPLES).astype(np.float32)
        accel = truth + rng.normal(0, 0.2, SAMPLES).astype(np.float32)
        est.start(integrate_gyro(rates, float(t[1] - t[0])), accel)
        est.finish()
        tilt = est.publish(limit=0.35)
        err = float(np.abs(tilt - np.clip(truth, -0.35, 0.35)).mean())
        print(f"burst {burst}: mean |error| {err:.4f} rad, peak {tilt.max():.3f}")
        assert abs(tilt).max() <= 0.35 + 1e-6


if __name__ == "__main__":
    main()
