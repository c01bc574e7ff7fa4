# fresh-expect: clean
# fresh-note: A cricket ball tracker's low-memory layout gives the filter output and clearance disjoint split_at halves of one allocation, so the stencil launches never alias.
"""Cricket ball tracking: smooth the hawk-eye height trace and compute bounce clearance, with a low-memory layout."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BUDGET_BYTES = 2 * 1024


@simt.kernel
@simt.launch_contract(block=64)
def smooth_track(height: Slice[f32], filtered: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(height)
    lo = max(i - 1, 0)
    hi = min(i + 1, n - 1)
    if (o := filtered.get_mut(idx)) is not None:
        o.set(0.25 * height[lo] + 0.5 * height[i] + 0.25 * height[hi])


@simt.kernel
@simt.launch_contract(block=64)
def stump_clearance(filtered: Slice[f32], stump_top: f32, clearance: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := clearance.get_mut(idx)) is not None:
        o.set(filtered[i] - stump_top)


class Delivery(NamedTuple):
    bowler: str
    pace_kmh: float
    seed: int


@dataclass
class TrackBuffers:
    height: sk.DeviceBuffer
    filtered: sk.DeviceBuffer
    clearance: sk.DeviceBuffer

    @classmethod
    def allocate(cls, n: int, stream: sk.Stream) -> TrackBuffers:
        height = sk.zeros(n, f32, stream)
        if 3 * 4 * n > BUDGET_BYTES:
            # low memory: filter output and clearance share one allocation, in disjoint halves
            filtered, clearance = sk.zeros(2 * n, f32, stream).split_at(n)
        else:
            filtered, clearance = sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)
        return cls(height, filtered, clearance)


def deliveries(over: int) -> Iterator[Delivery]:
    bowlers = ("Akhtar", "Starc")
    for ball in range(6):
        yield Delivery(bowlers[ball % 2], 135.0 + 3.0 * ball, 100 * over + ball)


class Tracker:
    def __init__(self, dev: sk.Device, samples: int) -> None:
        self.stream = dev.new_stream()
        self.n = samples
        config = simt.LaunchConfig1D.for_len(samples, block=64)
        self.smooth_plan = smooth_track.prepare(config, dev)
        self.clear_plan = stump_clearance.prepare(config, dev)
        self.buffers = TrackBuffers.allocate(samples, self.stream)

    def would_hit(self, delivery: Delivery) -> bool:
        t = np.linspace(0.0, 1.0, self.n, dtype=np.float32)
        rng = np.random.default_rng(delivery.seed)
        bounce = 0.55 + 0.004 * (delivery.pace_kmh - 135.0)
        h = np.where(t < bounce, 2.2 * (1 - t / bounce), 1.6 * (t - bounce)) + 0.03 * rng.standard_normal(self.n)
        bufs = self.buffers
        bufs.height.copy_from_numpy(h.astype(np.float32), self.stream)
        smooth_track.launch(self.smooth_plan, self.stream, bufs.height, bufs.filtered)
        stump_clearance.launch(self.clear_plan, self.stream, bufs.filtered, 0.71, bufs.clearance)
        at_stumps = bufs.clearance.to_numpy(self.stream)[-self.n // 10 :]
        return bool((at_stumps < 0.0).any())


def main() -> None:
    dev = sk.Device.default()
    for samples in (64, 256):
        tracker = Tracker(dev, samples)
        hits = [d.bowler for d in deliveries(samples // 64) if tracker.would_hit(d)]
        print(f"{samples} samples: {len(hits)} hitting deliveries", hits or "none")


if __name__ == "__main__":
    main()
