# fresh-expect: E0502 at line 97
# fresh-known-miss: cli,mypy a stage taken from a deque builds a halo-extended source view through a helper whose bounds read the stage's fields: views over computed slot indices of an arena are not compared
# fresh-note: Ice-core cleaning stages from a deque read slot k and write slot k+1 of one arena, but the smoothing stage's halo-extended source view runs HALO samples into the destination slot, so the launch reads and writes overlapping memory.
"""Ice core d18O record: a staged cleaning pipeline over slots of one scratch arena.
Stage k reads slot k and writes slot k + 1 of the arena (raw -> detrended -> despiked ->
smoothed). Stages are queued in a deque and run in order; smoothing stages read a halo of
neighbouring depths on the right.
"""
from __future__ import annotations

from collections import deque
from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

DEPTHS = 128
HALO = 4


@simt.kernel
@simt.launch_contract(block=64)
def detrend(src: Slice[f32], dst: DisjointSlice[f32], slope: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] - slope * f32(i))


@simt.kernel
@simt.launch_contract(block=64)
def despike(src: Slice[f32], dst: DisjointSlice[f32], limit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(min(max(src[i], -limit), limit))


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32], width: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(width):
            acc += src[i + k]
        o.set(acc / f32(width))


class Stage(NamedTuple):
    name: str
    kernel: object
    param: float
    halo: int = 0


def slot(arena: sk.DeviceBuffer, k: int, halo: int = 0) -> sk.DeviceBuffer:
    """Depth slot k of the arena, extended by `halo` samples for windowed reads."""
    return arena.view(k * DEPTHS, (k + 1) * DEPTHS + halo)


def core_record(rng: np.random.Generator) -> np.ndarray:
    depth = np.arange(DEPTHS, dtype=np.float32)
    cycles = 2.5 * np.sin(depth / 9.0) - 35.0 + 0.01 * depth
    spikes = (rng.random(DEPTHS) < 0.04) * rng.normal(0.0, 12.0, DEPTHS)
    return (cycles + spikes + rng.normal(0.0, 0.3, DEPTHS)).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1998)

    stages = deque(
        [
            Stage("detrend", detrend, 0.01),
            Stage("despike", despike, 40.0),
            Stage("smooth", smooth, HALO + 1, halo=HALO),
        ]
    )
    arena = sk.zeros((len(stages) + 1) * DEPTHS + HALO, f32, stream)
    slot(arena, 0).copy_from_numpy(core_record(rng) + 40.0)

    config = simt.LaunchConfig1D.for_len(DEPTHS, block=64)
    k = 0
    while stages:
        stage = stages.popleft()
        prepared = stage.kernel.prepare(config, dev)
        src = slot(arena, k, stage.halo)
        dst = slot(arena, k + 1)
        param = int(stage.param) if stage.name == "smooth" else stage.param
        stage.kernel.launch(prepared, stream, src, dst, param)
        print(f"stage {k} ({stage.name}) done")
        k += 1

    cleaned = slot(arena, k).to_numpy(stream)
    print(f"cleaned record: mean {cleaned.mean():.2f}, range {np.ptp(cleaned):.2f} per mil")


if __name__ == "__main__":
    main()
