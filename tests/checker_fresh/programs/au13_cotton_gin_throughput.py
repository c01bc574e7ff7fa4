# fresh-expect: E0308 at line 66
# fresh-known-miss: cli,mypy an `lru_cache` helper returning a dict comprehension over `zip(sorted(STAGES), STAGES.values())`, read as `plans(dev, n)[name]` with `STAGES[name]` under a parameter key: the launch prepared for another kernel (E0308) is not followed
# fresh-note: Cotton gin throughput metrics; the plan registry pairs sorted stage names with the kernel registry's values in insertion order, so the `lint` stage is launched with the launch prepared for `seed_count`.
"""Bale-level throughput metrics for a cotton gin's stands."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STANDS = 96


@simt.kernel
@simt.launch_contract(block=32)
def seed_count(feed_kg: Slice[f32], out: DisjointSlice[f32], ratio: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(feed_kg[i] * ratio * f32(9.5))


@simt.kernel
@simt.launch_contract(block=32)
def lint_fraction(feed_kg: Slice[f32], out: DisjointSlice[f32], ratio: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(feed_kg[i] * ratio)


@simt.kernel
@simt.launch_contract(block=32)
def trash_ratio(feed_kg: Slice[f32], out: DisjointSlice[f32], ratio: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(feed_kg[i] * (f32(1.0) - ratio) * f32(0.2))


STAGES = {"seed": seed_count, "lint": lint_fraction, "trash": trash_ratio}
TURNOUT = {"seed": 0.55, "lint": 0.38, "trash": 0.38}


@lru_cache(maxsize=4)
def plans(dev: sk.Device, n: int) -> dict[str, simt.PreparedLaunch]:
    config = simt.LaunchConfig1D.for_len(n, block=32)
    return {name: kernel.prepare(config, dev) for name, kernel in zip(sorted(STAGES), STAGES.values())}


class GinShift:
    def __init__(self, dev: sk.Device, stream: sk.Stream, feed: np.ndarray) -> None:
        self.dev = dev
        self.stream = stream
        self.feed = sk.to_device(feed, stream)
        self.metrics = {name: sk.zeros(STANDS, f32, stream) for name in STAGES}

    def run_stage(self, name: str) -> float:
        kernel = STAGES[name]
        launch = plans(self.dev, STANDS)[name]
        kernel.launch(launch, self.stream, self.feed, self.metrics[name], TURNOUT[name])
        return float(self.metrics[name].to_numpy(self.stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    shift = GinShift(dev, stream, rng.uniform(180, 260, STANDS).astype(np.float32))
    totals = {}
    for name in ("lint", "seed", "trash"):
        totals[name] = shift.run_stage(name)
    bales = totals["lint"] / 227.0
    print(f"{bales:.1f} bales of lint, {totals['seed']:.0f} seeds (thousands), {totals['trash']:.0f} kg trash")


if __name__ == "__main__":
    main()
