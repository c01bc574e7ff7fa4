# fresh-expect: E0499 at line 88
# fresh-known-miss: cli,mypy a one-slot scratch ring (its slot count from a profile, 1 under low memory) leased twice by a context manager: the ring's length is not computed
# fresh-note: under the low-memory profile the scratch ring has a single slot and its lease() context manager does not track slots in use, so the two nested leases hand the same buffer to both outputs of the split kernel.
"""Hot/cold split of a measure column with scratch buffers leased from a ring.

A skew-aware aggregation splits a column at a threshold: values below it go to the "cold" output, the rest to
the "hot" output (zeros elsewhere), and each side is then summarized separately.  Output columns are leased from
a ring of scratch buffers sized by the execution profile the planner picks from the estimated input size.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(vals) <= len(cold)", "len(vals) <= len(hot)"))
def split_at(vals: Slice[f32], cold: DisjointSlice[f32], hot: DisjointSlice[f32], threshold: f32) -> None:
    i = thread.index_1d().get()
    if i < len(vals):
        v = vals[i]
        if (c := cold.get_mut(thread.index_1d())) is not None:
            c.set(v if v < threshold else f32(0.0))
        if (h := hot.get_mut(thread.index_1d())) is not None:
            h.set(v if v >= threshold else f32(0.0))


@dataclass(frozen=True)
class Profile:
    name: str
    scratch_slots: int
    rows_per_slot: int


PROFILES = {
    "default": Profile("default", scratch_slots=4, rows_per_slot=4096),
    "low_memory": Profile("low_memory", scratch_slots=1, rows_per_slot=4096),
}


def choose_profile(estimated_rows: int, budget_bytes: int) -> Profile:
    return PROFILES["low_memory" if estimated_rows * 4 * 8 > budget_bytes else "default"]


class ScratchRing:
    def __init__(self, profile: Profile, stream: sk.Stream) -> None:
        self.stream = stream
        self.slots = [sk.zeros(profile.rows_per_slot, f32, stream) for _ in range(profile.scratch_slots)]
        self._next = 0
        self.leases = 0

    @contextmanager
    def lease(self) -> Iterator[sk.DeviceBuffer]:
        slot = self.slots[self._next % len(self.slots)]
        self._next += 1
        self.leases += 1
        yield slot


@dataclass
class SideSummary:
    rows: int
    total: float
    peak: float


class SkewSplitter:
    def __init__(self, dev: sk.Device, stream: sk.Stream, ring: ScratchRing) -> None:
        self.dev = dev
        self.stream = stream
        self.ring = ring

    def split(self, values: np.ndarray, threshold: float) -> tuple[SideSummary, SideSummary]:
        vals = sk.to_device(values.astype(np.float32), self.stream)
        prepared = split_at.prepare(simt.LaunchConfig1D.for_len(len(values), block=BLOCK), self.dev)
        with self.ring.lease() as cold, self.ring.lease() as hot:
            split_at.launch(prepared, self.stream, vals, cold, hot, threshold)
            sides = [buf.to_numpy(self.stream)[: len(values)] for buf in (cold, hot)]
        return tuple(self._summarize(side) for side in sides)  # type: ignore[return-value]

    @staticmethod
    def _summarize(side: np.ndarray) -> SideSummary:
        nz = side[side != 0]
        return SideSummary(rows=int(nz.size), total=float(nz.sum()), peak=float(nz.max(initial=0.0)))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(29)
    latencies = rng.lognormal(mean=3.0, sigma=0.8, size=3000).astype(np.float32)
    profile = choose_profile(estimated_rows=len(latencies), budget_bytes=64 * 1024)
    print(f"profile: {profile.name} ({profile.scratch_slots} scratch slots)")
    splitter = SkewSplitter(dev, stream, ScratchRing(profile, stream))
    for pct in (50, 90, 99):
        threshold = float(np.percentile(latencies, pct))
        cold, hot = splitter.split(latencies, threshold)
        assert cold.rows + hot.rows == len(latencies)
        assert abs(cold.total + hot.total - float(latencies.sum())) < 1e-2 * float(latencies.sum())
        print(f"p{pct}={threshold:.1f}: cold {cold.rows} rows / {cold.total:.0f}, hot {hot.rows} rows, max {hot.peak:.1f}")
    print(f"{splitter.ring.leases} leases")


if __name__ == "__main__":
    main()
