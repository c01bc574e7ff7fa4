# fresh-expect: E0499 at line 56
# fresh-note: Pottery-wheel vibration monitor that splits each frame into low and high bands written into one packed buffer; the low-band accessor keeps one halo sample (`self.packed[: self.frame + HALO]`), which overlaps the first element of the high band, so the two outputs of one launch alias.
"""Band-split vibration monitoring for a potter's wheel bearing."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAME = 1024
HALO = 1  # one extra low-band sample, reused by the next frame's filter


@simt.kernel
@simt.launch_contract(block=128)
def split_bands(signal: Slice[f32], low: DisjointSlice[f32], high: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    second = thread.index_1d()
    n = len(signal)
    cur = signal[i] if i < n else f32(0.0)
    prev = signal[i - 1] if 0 < i < n else cur
    if (lo := low.get_mut(idx)) is not None:
        lo.set(f32(0.5) * (cur + prev))
    if (hi := high.get_mut(second)) is not None:
        hi.set(f32(0.5) * (cur - prev))


class WheelMonitor:
    """Keeps both bands of the current frame in one packed allocation."""

    def __init__(self, rpm: float, stream: sk.Stream, dev: sk.Device) -> None:
        self.rpm = rpm
        self.stream = stream
        self.frame = FRAME
        self.packed = sk.zeros(2 * FRAME + HALO, f32, stream)
        self.prepared = split_bands.prepare(simt.LaunchConfig1D.for_len(FRAME + HALO, block=128), dev)

    def low_band(self) -> sk.DeviceBuffer:
        return self.packed[: self.frame + HALO]

    def high_band(self) -> sk.DeviceBuffer:
        return self.packed[self.frame :]

    def acquire(self, t0: float) -> sk.DeviceBuffer:
        t = t0 + np.arange(self.frame, dtype=np.float32) / 4000.0
        hz = self.rpm / 60.0
        sig = np.sin(2 * np.pi * hz * t) + 0.1 * np.sin(2 * np.pi * 37.0 * hz * t)
        return sk.to_device(sig.astype(np.float32), self.stream)

    def process(self, t0: float) -> float:
        signal = self.acquire(t0)
        split_bands.launch(self.prepared, self.stream, signal, self.low_band(), self.high_band())
        high = self.packed.to_numpy(self.stream)[self.frame + HALO :]
        return float(np.sqrt(np.mean(high * high)))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    monitor = WheelMonitor(rpm=240.0, stream=stream, dev=dev)
    for k in range(3):
        rms = monitor.process(t0=k * FRAME / 4000.0)
        print(f"frame {k}: high-band rms {rms:.4f}")


if __name__ == "__main__":
    main()
