# fresh-expect: clean
# fresh-note: A swimming split board keeps each stroke's kernel together with its own prepared launch in a dict of tuples, launches through functools.partial and smooths with an autotuned SIMT kernel.
"""Swimming split analysis: per-stroke pace kernels kept with their own prepared launches, plus an autotuned smoother."""
from __future__ import annotations

import functools
from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

LAPS = 64
POOL_M = 50.0


class Stroke(Enum):
    FREE = "free"
    BACK = "back"
    FLY = "fly"


@simt.kernel
@simt.launch_contract(block=32)
def free_pace(split_s: Slice[f32], pace: DisjointSlice[f32], pool_m: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := pace.get_mut(idx)) is not None:
        o.set(split_s[i] * 100.0 / pool_m)


@simt.kernel
@simt.launch_contract(block=64)
def turn_corrected_pace(split_s: Slice[f32], pace: DisjointSlice[f32], pool_m: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := pace.get_mut(idx)) is not None:
        o.set((split_s[i] - 0.6) * 100.0 / pool_m)


@simt.autotune(configs=[32, 64], key=["raw"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def smooth3(raw: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(raw)
    lo = max(i - 1, 0)
    hi = min(i + 1, n - 1)
    if (o := out.get_mut(idx)) is not None:
        o.set((raw[lo] + raw[i] + raw[hi]) / 3.0)


KERNELS = {Stroke.FREE: free_pace, Stroke.BACK: turn_corrected_pace, Stroke.FLY: turn_corrected_pace}
BLOCKS = {free_pace: 32, turn_corrected_pace: 64}


class SplitBoard:
    def __init__(self, dev: sk.Device, swimmers: dict[str, Stroke]) -> None:
        self.stream = dev.new_stream()
        self.swimmers = swimmers
        self.plans = {
            stroke: (kernel, kernel.prepare(simt.LaunchConfig1D.for_len(LAPS, block=BLOCKS[kernel]), dev))
            for stroke, kernel in KERNELS.items()
        }
        self.pace = {name: sk.zeros(LAPS, f32, self.stream) for name in swimmers}
        self.smoothed = {name: sk.zeros(LAPS, f32, self.stream) for name in swimmers}

    def splits(self, name: str) -> sk.DeviceBuffer:
        rng = np.random.default_rng(sum(map(ord, name)))
        fade = np.linspace(0.0, 2.5, LAPS, dtype=np.float32)
        return sk.to_device((28.0 + fade + rng.random(LAPS).astype(np.float32)), self.stream)

    def analyse(self, name: str) -> tuple[float, float]:
        kernel, plan = self.plans[self.swimmers[name]]
        emit = functools.partial(kernel.launch, plan, self.stream)
        emit(self.splits(name), self.pace[name], POOL_M)
        smooth3.launch(self.stream, self.pace[name], self.smoothed[name])
        curve = self.smoothed[name].to_numpy(self.stream)
        return float(curve[: LAPS // 2].mean()), float(curve[LAPS // 2 :].mean())


def main() -> None:
    board = SplitBoard(sk.Device.default(), {"Ito": Stroke.FREE, "Maas": Stroke.BACK, "Lind": Stroke.FLY})
    results = {name: board.analyse(name) for name in board.swimmers}
    for name, (front, back) in sorted(results.items(), key=lambda kv: kv[1][1]):
        tag = "negative split" if back < front else "fade"
        print(f"{name:5s} {front:6.2f} -> {back:6.2f} s/100m ({tag})")


if __name__ == "__main__":
    main()
