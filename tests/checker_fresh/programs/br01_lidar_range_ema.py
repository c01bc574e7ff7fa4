# fresh-expect: E0502 at line 87
# fresh-known-miss: cli,mypy a ring of filtered scans with `history` slots (1 here) read at the newest and the next slot: the ring's length is not computed
# fresh-note: the scan ring is sized with `history` instead of `history + 1` slots, so with history=1 the slot claimed for the next filtered scan is the newest one the blend reads as `prev`.
"""Range-image temporal smoothing for a spinning lidar.

Each incoming scan is blended with the previous filtered scan (an exponential moving average per
beam/azimuth cell) to suppress speckle from rain and dust.  Filtered scans live in a small ring of device
buffers so that downstream consumers (ground segmentation, the tracker) can look back `history` frames.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BEAMS = 16
AZIMUTH_BINS = 64
CELLS = BEAMS * AZIMUTH_BINS


@simt.kernel
@simt.launch_contract(block=128)
def ema_blend(prev: Slice[f32], raw: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        r = raw[i]
        if r <= 0.0:  # dropout (no return): hold the previous filtered range
            o.set(prev[i])
        else:
            o.set(alpha * r + (1.0 - alpha) * prev[i])


@dataclass(frozen=True)
class FilterConfig:
    alpha: float = 0.35
    history: int = 1  # past filtered scans a consumer may look back at
    block: int = 128


class ScanRing:
    """Fixed ring of device range images; slot `head` holds the newest filtered scan."""

    def __init__(self, capacity: int, stream: sk.Stream) -> None:
        if capacity < 1:
            raise ValueError("ring needs at least one slot")
        self.capacity = capacity
        self._slots = [sk.zeros(CELLS, f32, stream) for _ in range(capacity)]
        self._head = 0
        self._count = 1  # slot 0 starts as an all-zero "previous" scan

    def newest(self) -> sk.DeviceBuffer:
        return self._slots[self._head]

    def claim_next(self) -> sk.DeviceBuffer:
        """The slot the next filtered scan is written into: the oldest one."""
        return self._slots[(self._head + 1) % self.capacity]

    def commit(self) -> None:
        self._head = (self._head + 1) % self.capacity
        self._count = min(self._count + 1, self.capacity)

    def history(self) -> Iterator[sk.DeviceBuffer]:
        for k in range(self._count):
            yield self._slots[(self._head - k) % self.capacity]


class RangeFilter:
    def __init__(self, cfg: FilterConfig, dev: sk.Device, stream: sk.Stream) -> None:
        self.cfg = cfg
        self.stream = stream
        self.ring = ScanRing(cfg.history, stream)
        self.prepared = ema_blend.prepare(simt.LaunchConfig1D.for_len(CELLS, block=cfg.block), dev)
        self.frames_seen = 0

    def step(self, scan: np.ndarray) -> None:
        raw = sk.to_device(scan.astype(np.float32).ravel(), self.stream)
        prev = self.ring.newest()
        out = self.ring.claim_next()
        ema_blend.launch(self.prepared, self.stream, prev, raw, out, self.cfg.alpha)
        self.ring.commit()
        self.frames_seen += 1

    def latest(self) -> np.ndarray:
        return self.ring.newest().to_numpy(self.stream).reshape(BEAMS, AZIMUTH_BINS)


def simulate_scans(count: int, seed: int = 7) -> Iterator[np.ndarray]:
    """A static scene (a wall at 12 m, a post at 4 m) with range noise and random dropouts."""
    rng = np.random.default_rng(seed)
    scene = np.full((BEAMS, AZIMUTH_BINS), 12.0, np.float32)
    scene[:, 20:24] = 4.0
    for _ in range(count):
        noisy = scene + rng.normal(0.0, 0.05, scene.shape).astype(np.float32)
        noisy[rng.random(scene.shape) < 0.08] = 0.0
        yield noisy


def reference(scans: list[np.ndarray], alpha: float) -> np.ndarray:
    state = np.zeros((BEAMS, AZIMUTH_BINS), np.float32)
    a = np.float32(alpha)
    for s in scans:
        state = np.where(s <= 0.0, state, a * s + (np.float32(1.0) - a) * state).astype(np.float32)
    return state


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    cfg = FilterConfig()
    filt = RangeFilter(cfg, dev, stream)
    scans = list(simulate_scans(6))
    for scan in scans:
        filt.step(scan)
    got = filt.latest()
    want = reference(scans, cfg.alpha)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    lookback = [buf.to_numpy(filt.stream).mean() for buf in filt.ring.history()]
    print(f"filtered {filt.frames_seen} scans; post range {got[:, 21].mean():.2f} m; history means {lookback}")


if __name__ == "__main__":
    main()
