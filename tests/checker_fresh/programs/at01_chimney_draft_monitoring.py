# fresh-expect: E0502 at line 60
# fresh-note: Chimney draft pressure monitor smoothing per-flue readings; once warmed up the history helper returns the smoothed output buffer itself, so the smoothing launch reads and writes the same buffer.
"""Chimney draft monitor: exponential smoothing of flue differential pressure, with low-draft alarms."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(prev) >= n", "len(raw) >= n", "len(out) >= n"))
def ema(prev: Slice[f32], raw: Slice[f32], out: DisjointSlice[f32], alpha: f32, n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (o := out.get_mut(idx)) is not None:
        o.set(alpha * raw[i] + (f32(1.0) - alpha) * prev[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def draft_alarm(smooth: Slice[f32], flags: DisjointSlice[f32], limit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := flags.get_mut(idx)) is not None:
        flag = f32(0.0)
        if smooth[i] < limit:
            flag = f32(1.0)
        o.set(flag)


class DraftMonitor:
    def __init__(self, dev: sk.Device, stream: sk.Stream, flues: int, alpha: float = 0.6) -> None:
        self.stream = stream
        self.flues = flues
        self.alpha = alpha
        self.baseline = sk.to_device(np.full(flues, 12.0, np.float32), stream)
        self.smoothed = sk.zeros(flues, f32, stream)
        self.flags = sk.zeros(flues, f32, stream)
        self.samples_seen = 0
        cfg = simt.LaunchConfig1D.for_len(flues, block=BLOCK)
        self._ema = ema.prepare(cfg, dev)
        self._alarm = draft_alarm.prepare(cfg, dev)

    @property
    def warmed_up(self) -> bool:
        return self.samples_seen >= 2

    def _history(self) -> sk.DeviceBuffer:
        return self.smoothed if self.warmed_up else self.baseline

    def ingest(self, reading: np.ndarray) -> None:
        raw = sk.to_device(reading.astype(np.float32), self.stream)
        ema.launch(self._ema, self.stream, self._history(), raw, self.smoothed, self.alpha, self.flues)
        self.samples_seen += 1

    def alarms(self, limit: float) -> np.ndarray:
        draft_alarm.launch(self._alarm, self.stream, self.smoothed, self.flags, limit)
        return np.flatnonzero(self.flags.to_numpy(self.stream))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    flues = 96
    monitor = DraftMonitor(dev, stream, flues)
    rng = np.random.default_rng(7)
    for hour in range(6):
        pascals = 12.0 + rng.normal(0.0, 2.0, flues)
        pascals[hour * 10 : hour * 10 + 3] -= 9.0
        monitor.ingest(pascals)
        low = monitor.alarms(limit=8.0)
        print(f"hour {hour}: {len(low)} flues under-drafting")
    print("mean draft", float(monitor.smoothed.to_numpy(stream).mean()))


if __name__ == "__main__":
    main()
