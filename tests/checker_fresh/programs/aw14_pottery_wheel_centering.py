# fresh-expect: clean
# fresh-note: A pottery-wheel gauge reduces per-revolution wobble in shared memory inside kernel-side unsafe blocks and benchmarks a launch_unchecked written inside `with timed(...), simt.unsafe():` in the same function.
"""Pottery wheel centering: per-revolution wobble from a laser gauge, reduced in shared memory, with a benchmarked unchecked launch."""
from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

REV = 64


@simt.kernel
@simt.launch_contract(block=64)
def revolution_wobble(deviation: Slice[f32], per_rev: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    b = thread.block_idx_x()
    i = b * 64 + t
    n = len(deviation)
    with simt.unsafe():
        scratch = simt.shared_array(f32, 64)
        if i < n:
            scratch[t] = deviation[i] * deviation[i]
        else:
            scratch[t] = f32(0.0)
    thread.sync_threads()
    stride = 32
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                scratch[t] = scratch[t] + scratch[t + stride]
        thread.sync_threads()
        stride = stride // 2
    if t == 0:
        with simt.unsafe():
            slot = per_rev.get_unchecked_mut(b)
            slot.set(scratch[0] / 64.0)


@simt.kernel
@simt.launch_contract(block=64)
def remove_offset(radius: Slice[f32], deviation: DisjointSlice[f32], nominal: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := deviation.get_mut(idx)) is not None:
        o.set(radius[i] - nominal)


@dataclass
class Throw:
    potter: str
    clay_kg: float
    revolutions: int
    eccentricity_mm: float


@contextmanager
def timed(label: str, sink: dict[str, float]):
    start = time.perf_counter()
    try:
        yield
    finally:
        sink[label] = time.perf_counter() - start


class CenteringGauge:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.timings: dict[str, float] = {}

    def radius_trace(self, throw: Throw) -> np.ndarray:
        angle = np.arange(throw.revolutions * REV, dtype=np.float32) * (2 * math.pi / REV)
        decay = np.exp(-angle / (2 * math.pi * throw.revolutions / 2.0)).astype(np.float32)
        return (60.0 + throw.clay_kg + throw.eccentricity_mm * decay * np.sin(angle)).astype(np.float32)

    def wobble(self, throw: Throw, benchmark: bool = False) -> np.ndarray:
        n = throw.revolutions * REV
        radius = sk.to_device(self.radius_trace(throw), self.stream)
        deviation = sk.zeros(n, f32, self.stream)
        per_rev = sk.zeros(throw.revolutions, f32, self.stream)
        config = simt.LaunchConfig1D.for_len(n, block=64)
        remove_offset.launch(remove_offset.prepare(config, self.dev), self.stream, radius, deviation,
                             60.0 + throw.clay_kg)
        if benchmark:
            with timed(f"{throw.potter}/unchecked", self.timings), simt.unsafe():
                revolution_wobble.launch_unchecked(config, self.stream, deviation, per_rev)
        else:
            with timed(f"{throw.potter}/checked", self.timings):
                revolution_wobble.launch(revolution_wobble.prepare(config, self.dev), self.stream, deviation, per_rev)
        return np.sqrt(per_rev.to_numpy(self.stream))


def main() -> None:
    gauge = CenteringGauge(sk.Device.default())
    throws = [Throw("Lucie", 2.5, 6, 3.0), Throw("Shoji", 4.0, 8, 1.2)]
    for bench in (False, True):
        for throw in throws:
            rms = gauge.wobble(throw, benchmark=bench)
            centred_at = next((r for r, w in enumerate(rms) if w < 0.5), None)
            print(f"{throw.potter}: rms wobble {rms[0]:.2f} -> {rms[-1]:.2f} mm, centred at rev {centred_at}")
    print({k: f"{v * 1e3:.1f} ms" for k, v in gauge.timings.items()})


if __name__ == "__main__":
    main()
