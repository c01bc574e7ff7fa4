# fresh-expect: clean
# fresh-note: Kite-surfing spot wind-gust smoothing with an exponential filter that ping-pongs between two buffers exposed as properties, with partial-bound alert callbacks.
"""Gust smoothing for the anemometer mast of a kite-surfing beach."""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SENSORS = 192


@simt.kernel
@simt.launch_contract(block=64)
def ema_step(prev: Slice[f32], sample: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * sample[i] + (f32(1.0) - alpha) * prev[i])


class GustFilter:
    def __init__(self, dev: sk.Device, stream: sk.Stream, alpha: float) -> None:
        self.stream = stream
        self.alpha = alpha
        self._bufs = [sk.zeros(SENSORS, f32, stream), sk.zeros(SENSORS, f32, stream)]
        self._flip = 0
        self.prepared = ema_step.prepare(simt.LaunchConfig1D.for_len(SENSORS, block=64), dev)
        self.listeners: list[Callable[[np.ndarray], None]] = []

    @property
    def front(self) -> sk.DeviceBuffer:
        return self._bufs[self._flip]

    @property
    def back(self) -> sk.DeviceBuffer:
        return self._bufs[1 - self._flip]

    def push(self, sample: sk.DeviceBuffer) -> None:
        ema_step.launch(self.prepared, self.stream, self.front, sample, self.back, self.alpha)
        self._flip = 1 - self._flip
        smoothed = self.front.to_numpy(self.stream)
        for listener in self.listeners:
            listener(smoothed)


def gust_alert(threshold: float, log: list[str], smoothed: np.ndarray) -> None:
    hot = np.flatnonzero(smoothed > threshold)
    if hot.size:
        log.append(f"{hot.size} sensors above {threshold:.0f} kn")


def wind_frames(rng: np.random.Generator, stream: sk.Stream, count: int):
    base = rng.uniform(12, 18, SENSORS).astype(np.float32)
    for k in range(count):
        gust = rng.exponential(4.0, SENSORS).astype(np.float32) * (k % 3 == 2)
        yield sk.to_device(base + gust, stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)
    log: list[str] = []
    filt = GustFilter(dev, stream, alpha=0.3)
    filt.listeners.append(functools.partial(gust_alert, 17.5, log))
    filt.listeners.append(functools.partial(gust_alert, 21.0, log))
    for frame in wind_frames(rng, stream, 6):
        filt.push(frame)
    final = filt.front.to_numpy(stream)
    print(f"mean {final.mean():.2f} kn, max {final.max():.2f} kn, alerts: {len(log)}")
    for line in log[-3:]:
        print(" ", line)


if __name__ == "__main__":
    main()
