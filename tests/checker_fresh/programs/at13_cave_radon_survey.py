# fresh-expect: clean
# fresh-note: Cave radon survey that corrects detector counts chamber by chamber and carries the ventilation-adjusted level from each chamber into the next through non-overlapping views of one profile buffer.
"""Show-cave radon survey: decay-corrected concentrations per chamber, propagated along the passage."""

from __future__ import annotations

import functools
import time
from typing import Any, Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 32
STATIONS = 24
RADON_HALF_LIFE_H = 91.8


@simt.kernel
@simt.launch_contract(block=BLOCK)
def decay_correct(counts: Slice[f32], bq_m3: DisjointSlice[f32], hours: f32, efficiency: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := bq_m3.get_mut(idx)) is not None:
        o.set(counts[i] / efficiency * f32(2.0) ** (hours / f32(RADON_HALF_LIFE_H)))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def carry_downstream(upstream: Slice[f32], local: Slice[f32], downstream: DisjointSlice[f32],
                     exchange: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := downstream.get_mut(idx)) is not None:
        o.set(exchange * upstream[len(upstream) - 1] + (f32(1.0) - exchange) * local[i])


def timed(label: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                print(f"[{label}] {time.perf_counter() - start:.3f}s")
        return inner
    return wrap


class Passage:
    def __init__(self, dev: sk.Device, stream: sk.Stream, chambers: int) -> None:
        self.stream = stream
        self.chambers = chambers
        self.concentration = sk.zeros(chambers * STATIONS, f32, stream)
        self.profile = sk.zeros(chambers * STATIONS, f32, stream)
        cfg = simt.LaunchConfig1D.for_len(STATIONS, block=BLOCK)
        self._correct = decay_correct.prepare(cfg, dev)
        self._carry = carry_downstream.prepare(cfg, dev)

    def chamber(self, buf: sk.DeviceBuffer, k: int) -> sk.DeviceBuffer:
        return buf.view(k * STATIONS, (k + 1) * STATIONS)

    @timed("decay correction")
    def load_counts(self, counts: np.ndarray, hours_since_sampling: float) -> None:
        raw = sk.to_device(counts.astype(np.float32), self.stream)
        for k in range(self.chambers):
            decay_correct.launch(self._correct, self.stream, self.chamber(raw, k),
                                 self.chamber(self.concentration, k), hours_since_sampling, 0.31)

    @timed("ventilation")
    def ventilate(self, exchange: float) -> np.ndarray:
        first = self.chamber(self.concentration, 0).to_numpy(self.stream)
        self.profile.view(0, STATIONS).copy_from_numpy(first)
        for k in range(1, self.chambers):
            upstream = self.chamber(self.profile, k - 1)
            downstream = self.chamber(self.profile, k)
            carry_downstream.launch(self._carry, self.stream, upstream,
                                    self.chamber(self.concentration, k), downstream, exchange)
        return self.profile.to_numpy(self.stream).reshape(self.chambers, STATIONS)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cave = Passage(dev, stream, chambers=5)
    rng = np.random.default_rng(12)
    counts = rng.poisson(lam=np.repeat([60, 140, 220, 310, 180], STATIONS)).astype(np.float32)
    cave.load_counts(counts, hours_since_sampling=30.0)
    levels = cave.ventilate(exchange=0.4)
    for k, row in enumerate(levels):
        status = "guided tours limited" if row.mean() > 600 else "ok"
        print(f"chamber {k}: {row.mean():7.1f} Bq/m3 ({status})")


if __name__ == "__main__":
    main()
