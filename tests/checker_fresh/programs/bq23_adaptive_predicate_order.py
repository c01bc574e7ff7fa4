# fresh-expect: E0502 at line 53
# fresh-known-miss: cli,mypy a list of hook lambdas stored in `__init__`, called right after `launch_async` with the pending output: callables kept in an attribute's list are not followed
# fresh-note: the selectivity hook fires right after launch_async, while the pending predicate kernel still writes the mask it copies to the host; it should fire after the op is synced.
"""Adaptive conjunctive filtering: evaluate range predicates in the order of observed selectivity.

`WHERE price BETWEEN .. AND qty BETWEEN .. AND age BETWEEN ..` is evaluated one predicate at a time, each a
SIMT kernel that ANDs its test into the running selection mask.  Batches are processed by asyncio tasks so
the host can prepare the next batch while kernels are queued; a statistics hook measures each predicate's
selectivity and the most selective predicate moves to the front for later batches.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(col) == len(out)", "len(mask) == len(out)"))
def and_between(col: Slice[f32], mask: Slice[i32], out: DisjointSlice[i32], lo: f32, hi: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = col[i]
        if mask[i] != 0 and v >= lo and v <= hi:
            o.set(i32(1))
        else:
            o.set(i32(0))


@dataclass(frozen=True)
class Between:
    column: str
    lo: float
    hi: float


@dataclass
class SelectivityStats:
    seen: dict[Between, list[float]] = field(default_factory=dict)

    def observe(self, pred: Between, mask: sk.DeviceBuffer, stream: sk.Stream) -> None:
        kept = mask.to_numpy(stream)
        self.seen.setdefault(pred, []).append(float(kept.mean()))

    def ranking(self, preds: list[Between]) -> list[Between]:
        return sorted(preds, key=lambda p: np.mean(self.seen.get(p, [1.0])))


Hook = Callable[[Between, sk.DeviceBuffer], None]


class AdaptiveFilter:
    def __init__(self, dev: sk.Device, stream: sk.Stream, preds: list[Between]) -> None:
        self.dev = dev
        self.stream = stream
        self.order = list(preds)
        self.stats = SelectivityStats()
        self.hooks: list[Hook] = [lambda p, m: self.stats.observe(p, m, self.stream)]

    def _dispatch(self, pred: Between, col: sk.DeviceBuffer, mask: sk.DeviceBuffer) -> tuple[sk.DeviceOp, sk.DeviceBuffer]:
        out = sk.zeros(len(col), i32, self.stream)
        prepared = and_between.prepare(simt.LaunchConfig1D.for_len(len(col), block=BLOCK), self.dev)
        pending = and_between.launch_async(prepared, col, mask, out, pred.lo, pred.hi)
        for hook in self.hooks:
            hook(pred, out)
        return pending, out

    async def run_batch(self, batch: dict[str, np.ndarray]) -> np.ndarray:
        n = len(next(iter(batch.values())))
        mask = sk.to_device(np.ones(n, np.int32), self.stream)
        for pred in list(self.order):
            col = sk.to_device(batch[pred.column].astype(np.float32), self.stream)
            pending, out = self._dispatch(pred, col, mask)
            await asyncio.sleep(0)  # let the next batch's task stage its columns
            pending.sync_on(self.stream)
            mask = out
        self.order = self.stats.ranking(self.order)
        return mask.to_numpy(self.stream).astype(bool)


def make_batch(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    return {
        "price": rng.random(n).astype(np.float32) * 100,
        "qty": rng.integers(1, 20, n).astype(np.float32),
        "age": rng.integers(18, 90, n).astype(np.float32),
    }


async def run_query(filt: AdaptiveFilter, batches: list[dict[str, np.ndarray]]) -> list[np.ndarray]:
    return list(await asyncio.gather(*(filt.run_batch(b) for b in batches)))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    preds = [Between("price", 10.0, 90.0), Between("qty", 1.0, 4.0), Between("age", 30.0, 40.0)]
    filt = AdaptiveFilter(dev, stream, preds)
    rng = np.random.default_rng(37)
    batches = [make_batch(rng, n) for n in (1500, 900, 1200)]
    masks = asyncio.run(run_query(filt, batches))
    for batch, mask in zip(batches, masks):
        want = np.ones(len(mask), bool)
        for p in preds:
            want &= (batch[p.column] >= p.lo) & (batch[p.column] <= p.hi)
        np.testing.assert_array_equal(mask, want)
    print(f"selected {[int(m.sum()) for m in masks]} rows; order now {[p.column for p in filt.order]}")


if __name__ == "__main__":
    main()
