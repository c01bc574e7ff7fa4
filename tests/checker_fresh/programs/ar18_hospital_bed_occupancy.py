# fresh-expect: clean
# fresh-note: hospital ward bed occupancy; a generator context manager keeps an async occupancy launch pending for its block, while the block only runs a second launch that shares the same admissions input, and the occupancy output is read after the block.
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DAYS = 120


@simt.kernel
@simt.launch_contract(block=32)
def census(admits: Slice[f32], discharges: Slice[f32], occupied: DisjointSlice[f32], start: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := occupied.get_mut(idx)) is not None:
        level = start
        for d in range(i + 1):
            level += admits[d] - discharges[d]
        o.set(level)


@simt.kernel
@simt.launch_contract(block=32)
def weekly_admits(admits: Slice[f32], smoothed: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (s := smoothed.get_mut(idx)) is not None:
        acc = f32(0.0)
        lo = max(i - 6, 0)
        for d in range(lo, i + 1):
            acc += admits[d]
        s.set(acc / f32(i + 1 - lo))


@contextmanager
def census_running(plan: simt.PreparedLaunch, stream: sk.Stream, admits: sk.DeviceBuffer,
                   discharges: sk.DeviceBuffer, occupied: sk.DeviceBuffer, start: float) -> Iterator[sk.DeviceBuffer]:
    op = census.launch_async(plan, admits, discharges, occupied, start)
    try:
        yield occupied
    finally:
        op.sync_on(stream)


def ward_flows(ward: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    season = 1.0 + 0.3 * np.sin(np.arange(DAYS) * 2 * np.pi / 60)
    scale = {"cardiology": 5.0, "orthopedics": 3.5}[ward]
    admits = rng.poisson(scale * season).astype(np.float32)
    discharges = rng.poisson(scale, DAYS).astype(np.float32)
    return admits, discharges


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(DAYS, block=32)
    census_plan, weekly_plan = census.prepare(cfg, dev), weekly_admits.prepare(cfg, dev)
    rng = np.random.default_rng(77)
    for ward, beds in [("cardiology", 60), ("orthopedics", 40)]:
        a_np, d_np = ward_flows(ward, rng)
        admits, discharges = sk.to_device(a_np, stream), sk.to_device(d_np, stream)
        occupied = sk.zeros(DAYS, f32, stream)
        smoothed = sk.zeros(DAYS, f32, stream)
        with census_running(census_plan, stream, admits, discharges, occupied, beds * 0.7):
            weekly_admits.launch(weekly_plan, stream, admits, smoothed)
        occ = occupied.to_numpy(stream)
        over = int((occ > beds).sum())
        print(f"{ward}: peak {occ.max():.0f}/{beds} beds, {over} days over capacity, "
              f"7-day admits now {smoothed.to_numpy(stream)[-1]:.1f}")


if __name__ == "__main__":
    main()
