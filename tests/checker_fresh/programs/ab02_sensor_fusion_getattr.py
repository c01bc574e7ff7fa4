# fresh-expect: E0502 at line 47
# fresh-known-miss: cli,mypy an attribute resolved by a class's __getattr__ through an alias table (bank.fused is bank.accel) is a new value
"""IMU sensor fusion: blend accelerometer and gyro channels into a fused estimate."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLES = 512


@simt.kernel
@simt.launch_contract(block=128)
def complementary(accel: Slice[f32], gyro: Slice[f32], fused: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := fused.get_mut(idx)) is not None:
        out.set(alpha * gyro[i] + (f32(1.0) - alpha) * accel[i])


class SensorBank:
    """Channels by name; legacy names are kept working through an alias table."""

    ALIASES = {"fused": "accel", "imu": "gyro"}   # firmware v1 wrote the estimate over the accel channel

    def __init__(self, stream: sk.Stream, **channels: np.ndarray) -> None:
        self._channels = {name: sk.to_device(data, stream) for name, data in channels.items()}
        self._stream = stream

    def __getattr__(self, name: str) -> sk.DeviceBuffer:
        channels = self.__dict__["_channels"]
        if name in channels:
            return channels[name]
        if name in self.ALIASES:
            return channels[self.ALIASES[name]]
        raise AttributeError(name)

    def snapshot(self, name: str) -> np.ndarray:
        return getattr(self, name).to_numpy(self._stream)


def fuse(bank: SensorBank, prepared: simt.PreparedLaunch, stream: sk.Stream, alpha: float = 0.98) -> None:
    complementary.launch(prepared, stream, bank.accel, bank.gyro, bank.fused, alpha)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    t = np.linspace(0.0, 4.0, SAMPLES, dtype=np.float32)
    bank = SensorBank(
        stream,
        accel=(np.sin(t) + 0.1 * np.random.default_rng(1).standard_normal(SAMPLES)).astype(np.float32),
        gyro=np.sin(t).astype(np.float32),
    )
    prepared = complementary.prepare(simt.LaunchConfig1D.for_len(SAMPLES, block=128), dev)
    fuse(bank, prepared, stream)
    est = bank.snapshot("fused")
    print("fused estimate head:", np.round(est[:4], 3))


if __name__ == "__main__":
    main()
