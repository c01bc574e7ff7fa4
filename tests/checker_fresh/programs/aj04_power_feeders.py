# fresh-expect: E0505 at line 74
# fresh-known-miss: cli,mypy pending sweeps a helper returns in a dict comprehension over a list parameter borrow each item's `v_next`; another helper then moves each item's `v_next` in a loop over the same list
# fresh-note: Distribution-grid voltage solver that starts one async Jacobi sweep per feeder (a dict comprehension of pending ops) and then runs the tile limit check, which moves each feeder's `v_next` while the sweep writing it is still pending.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def jacobi_sweep(v: Slice[f32], inj: Slice[f32], v_out: DisjointSlice[f32], g: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(v)
    if i < n:
        up = v[i - 1] if i > 0 else f32(1.0)          # substation holds 1.0 p.u.
        down = v[i + 1] if i + 1 < n else v[i]
        if (o := v_out.get_mut(idx)) is not None:
            o.set((g * (up + down) + inj[i]) / (f32(2.0) * g))


@tile.kernel
def limit_flags(flags: Partition[f32], v: Tensor[f32], vmin: f32, vmax: f32) -> None:
    t = tile.load_like(v, flags)
    flags.store(tile.where((t < vmin) | (t > vmax), 1.0, 0.0))


@dataclass
class Feeder:
    name: str
    v: sk.DeviceBuffer
    v_next: sk.DeviceBuffer
    inj: sk.DeviceBuffer


def build_feeders(stream: sk.Stream, buses: int) -> list[Feeder]:
    rng = np.random.default_rng(7)
    feeders = []
    for name, load in (("north", 0.02), ("harbor", 0.05), ("mill", 0.09)):
        inj = -load * rng.random(buses).astype(np.float32)
        feeders.append(Feeder(
            name=name,
            v=sk.to_device(np.ones(buses, np.float32), stream),
            v_next=sk.zeros(buses, f32, stream),
            inj=sk.to_device(inj, stream),
        ))
    return feeders


def start_sweeps(feeders: list[Feeder], prepared: simt.PreparedLaunch, g: float) -> dict[str, sk.DeviceOp]:
    return {f.name: jacobi_sweep.launch_async(prepared, f.v, f.inj, f.v_next, g) for f in feeders}


def finish_sweeps(jobs: dict[str, sk.DeviceOp], stream: sk.Stream) -> None:
    for name in list(jobs):
        jobs.pop(name).sync_on(stream)


def check_limits(feeders: list[Feeder], stream: sk.Stream) -> dict[str, int]:
    violations = {}
    for f in feeders:
        n = len(f.v_next)
        flags = tile.zeros((n,), f32).partition((TILE,))
        flags, f.v_next, _, _ = limit_flags(flags, f.v_next, 0.95, 1.05).sync_on(stream)
        violations[f.name] = int(flags.to_numpy(stream).sum())
    return violations


def solve(buses: int = 200, sweeps: int = 4) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    feeders = build_feeders(stream, buses)
    prepared = jacobi_sweep.prepare(simt.LaunchConfig1D.for_len(buses, block=64), dev)
    for sweep in range(sweeps):
        jobs = start_sweeps(feeders, prepared, g=5.0)
        if sweep == sweeps - 1:
            report = check_limits(feeders, stream)
            print("buses outside limits:", report)
        finish_sweeps(jobs, stream)
        for f in feeders:
            f.v, f.v_next = f.v_next, f.v
    worst = min(float(f.v.to_numpy(stream).min()) for f in feeders)
    print(f"lowest voltage after {sweeps} sweeps: {worst:.4f} p.u.")


if __name__ == "__main__":
    solve()
