# fresh-expect: clean
# fresh-note: Vertical-farm LED dimming: one SIMT launch per rack writes the upper and lower shelves' duty cycles into the two disjoint `split_at` halves of one buffer, reading separate lux and setpoint buffers (clean twin of the in-place dosing program).
"""Vertical farm LED dimming: each rack's measured light is turned into a PWM duty cycle.

A rack has an upper and a lower shelf.  Both shelves' duty cycles live in one device buffer, split into two
disjoint halves with `split_at`, and one launch per rack fills both halves from the shelves' light sensors.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def duty_cycle(lux: Slice[f32], setpoint: Slice[f32], upper: DisjointSlice[f32], lower: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    half = len(upper)
    if (u := upper.get_mut(idx)) is not None:
        u.set(min(f32(1.0), max(f32(0.0), (setpoint[i] - lux[i]) / setpoint[i])))
    lo = thread.index_1d()
    j = lo.get()
    if j < len(lower) and (d := lower.get_mut(lo)) is not None:
        d.set(min(f32(1.0), max(f32(0.0), (setpoint[j + half] - lux[j + half]) / setpoint[j + half])))


@dataclass(frozen=True)
class Rack:
    rack_id: int
    leds_per_shelf: int
    target_lux: float


@contextmanager
def timed(label: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        print(f"  {label}: {1e3 * (time.perf_counter() - start):.2f} ms")


def racks(count: int) -> Iterator[Rack]:
    for rack_id in range(count):
        yield Rack(rack_id, leds_per_shelf=128 * (1 + rack_id % 2), target_lux=250.0 + 25.0 * rack_id)


def dim_rack(rack: Rack, device: sk.Device, stream: sk.Stream, rng: np.random.Generator) -> np.ndarray:
    n = 2 * rack.leds_per_shelf
    lux = sk.to_device(rng.uniform(50.0, rack.target_lux, n).astype(np.float32), stream)
    setpoint = sk.to_device(np.full(n, rack.target_lux, np.float32), stream)
    duty = sk.zeros(n, f32, stream)
    upper, lower = duty.split_at(rack.leds_per_shelf)
    prepared = duty_cycle.prepare(simt.LaunchConfig1D.for_len(rack.leds_per_shelf, block=BLOCK), device)
    with timed(f"rack {rack.rack_id}"):
        duty_cycle.launch(prepared, stream, lux, setpoint, upper, lower)
    return duty.to_numpy(stream).reshape(2, rack.leds_per_shelf)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    rng = np.random.default_rng(11)
    summary = {}
    for rack in racks(4):
        shelves = dim_rack(rack, device, stream, rng)
        summary[rack.rack_id] = shelves.mean(axis=1)
        assert ((shelves >= 0.0) & (shelves <= 1.0)).all()
    for rack_id, (top, bottom) in summary.items():
        print(f"rack {rack_id}: upper duty {top:.2%}, lower duty {bottom:.2%}")


if __name__ == "__main__":
    main()
