# fresh-expect: clean
# fresh-note: Meteor velocity histogram: a tile kernel with an AtomicTensor histogram ingests nightly batches from a bounded deque, and the class rebinds `self.counts` from every launch's handed-back values (clean twin of the transit stacker).
"""Meteor shower monitoring: histogram of entry velocities from a camera network, batch by batch.

Each night's detections are binned into a velocity histogram kept on the device (atomic adds from every
tile block) while the kernel also writes the normalised velocity of every detection.  Batches wait in a
bounded deque, oldest first.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

BINS = 32
TILE = 128
V_MAX = 72.0  # km/s, the fastest a solar-system meteoroid can hit


@tile.kernel
def bin_velocities(norm: Partition[f32], counts: AtomicTensor[i32], speed: Tensor[f32]) -> None:
    v = tile.load_like(speed, norm)
    frac = tile.minimum(v * (1.0 / V_MAX), 0.999)
    lanes = tile.iota(TILE, i32) + tile.bid(0) * TILE
    tile.atomic_add(counts, (frac * BINS).astype(i32), 1, mask=lanes < speed.shape[0])
    norm.store(frac)


@dataclass
class Night:
    label: str
    speeds: np.ndarray


class VelocityHistogram:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.counts = tile.zeros((BINS,), i32).sync_on(stream)
        self.nights: list[str] = []

    def ingest(self, night: Night) -> np.ndarray:
        n = len(night.speeds)
        norm = tile.zeros((n,), f32).partition((TILE,))
        speed = tile.from_numpy(night.speeds.astype(np.float32))
        norm, self.counts, _speed = bin_velocities(norm, self.counts, speed).sync_on(self.stream)
        self.nights.append(night.label)
        return norm.unpartition().to_numpy(self.stream)

    @property
    def peak_velocity(self) -> float:
        counts = self.counts.to_numpy(self.stream)
        return (int(np.argmax(counts)) + 0.5) * V_MAX / BINS


def observe(rng: np.random.Generator) -> deque[Night]:
    backlog: deque[Night] = deque(maxlen=4)
    for day in range(6):  # the two oldest nights fall out of the bounded deque
        shower = rng.normal(59.0, 2.5, 700 + 37 * day)  # Perseid-like stream
        sporadic = rng.uniform(11.0, 72.0, 300)
        backlog.append(Night(f"Aug {10 + day}", np.clip(np.concatenate([shower, sporadic]), 11.0, 71.9)))
    return backlog


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    hist = VelocityHistogram(stream)
    backlog = observe(np.random.default_rng(8))
    while backlog:
        night = backlog.popleft()
        norm = hist.ingest(night)
        print(f"{night.label}: {len(norm)} meteors, median {V_MAX * float(np.median(norm)):.1f} km/s")
    total = int(hist.counts.to_numpy(stream).sum())
    print(f"{len(hist.nights)} nights, {total} meteors, peak bin at {hist.peak_velocity:.1f} km/s")


if __name__ == "__main__":
    main()
