# fresh-expect: E0382 at line 51
# idiom: tile EMA tensor lent to a SIMT kernel through as_buffer(); the lent handle is cached once and outlives the tensor's move
"""Streaming anomaly detection over a sensor array.

The monitor keeps an exponential moving average of every sensor as a 1-D tile tensor.  For each
incoming frame a SIMT kernel flags the sensors whose reading is far from their average, reading the
tile tensor in place through a buffer handle, and then a tile kernel folds the frame into the
average.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 128
TILE = 128


@tile.kernel
def ema_update(mean: Partition[f32], frame: Tensor[f32], alpha: f32) -> None:
    mean.store(mean.load() * (1.0 - alpha) + tile.load_like(frame, mean) * alpha)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def flag_outliers(frame: Slice[f32], mean: Slice[f32], flags: DisjointSlice[i32], tol: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := flags.get_mut(idx)) is not None:
        o.set(i32(1) if abs(frame[i] - mean[i]) > tol else i32(0))


class AnomalyMonitor:
    def __init__(self, baseline: np.ndarray, alpha: float, tol: float, device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.n = len(baseline)
        self.alpha, self.tol = alpha, tol
        self.mean = tile.from_numpy(baseline.astype(np.float32)).sync_on(self.stream)
        self.mean_buf = self.mean.as_buffer()
        self.flag_launch = flag_outliers.prepare(simt.LaunchConfig1D.for_len(self.n, block=BLOCK), device)

    def observe(self, reading: np.ndarray) -> list[int]:
        frame = sk.to_device(reading.astype(np.float32), self.stream)
        flags = sk.zeros(self.n, i32, self.stream)
        flag_outliers.launch(self.flag_launch, self.stream, frame, self.mean_buf, flags, self.tol)
        parts, _, _ = ema_update(self.mean.partition((TILE,)), frame, self.alpha).sync_on(self.stream)
        self.mean = parts.unpartition()
        return np.flatnonzero(flags.to_numpy(self.stream)).tolist()


def main() -> None:
    rng = np.random.default_rng(21)
    sensors = 300
    baseline = rng.uniform(20.0, 25.0, sensors)
    monitor = AnomalyMonitor(baseline, alpha=0.2, tol=1.5, device=sk.Device.cpu())
    for step in range(4):
        reading = baseline + 0.3 * rng.standard_normal(sensors)
        reading[(step * 37) % sensors] += 5.0  # one faulty sensor per frame
        print(f"frame {step}: outliers {monitor.observe(reading)}")


if __name__ == "__main__":
    main()
