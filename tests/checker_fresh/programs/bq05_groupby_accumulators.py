# fresh-expect: E0499 at line 85
# fresh-note: the accumulator arena caches zeroed buffers by (dtype, groups) only, so the SUM and COUNT accumulators of one query come back as the same buffer and are passed as two atomic outputs.
"""GROUP BY with SUM, COUNT and AVG over dictionary-encoded group keys, accumulated with atomics.

Group keys are already dense codes in [0, groups).  One SIMT launch scatters every row into per-group
accumulators with `fetch_add`; AVG is derived on the host from SUM and COUNT.  Accumulator buffers are kept in
an arena between queries so a dashboard refreshing the same aggregation does not reallocate.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, Slice, thread

BLOCK = 256


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(keys) == len(vals)",))
def sum_and_count(keys: Slice[i32], vals: Slice[f32], sums: AtomicSlice[f32], counts: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(keys):
        g = keys[i]
        if g >= 0:  # -1: row filtered out upstream
            sums.fetch_add(g, vals[i])
            counts.fetch_add(g, f32(1.0))


class Agg(Enum):
    SUM = "sum"
    COUNT = "count"
    AVG = "avg"


@dataclass(frozen=True)
class AccSpec:
    name: str
    dtype: type


class AccumulatorArena:
    """Zeroed accumulator buffers, reused across queries with the same shape."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._slots: dict[tuple[str, int], sk.DeviceBuffer] = {}
        self.hits = 0

    def zeroed(self, spec: AccSpec, groups: int) -> sk.DeviceBuffer:
        key = (spec.dtype.__name__, groups)
        buf = self._slots.get(key)
        if buf is None:
            buf = sk.zeros(groups, spec.dtype, self.stream)
            self._slots[key] = buf
        else:
            self.hits += 1
            buf.copy_from_numpy(np.zeros(groups, np.float32))
        return buf


@functools.cache
def prepared_for(rows: int, dev: sk.Device) -> simt.PreparedLaunch:
    return sum_and_count.prepare(simt.LaunchConfig1D.for_len(rows, block=BLOCK), dev)


class GroupByOperator:
    def __init__(self, dev: sk.Device, stream: sk.Stream, arena: AccumulatorArena) -> None:
        self.dev = dev
        self.stream = stream
        self.arena = arena

    def execute(self, keys: np.ndarray, vals: np.ndarray, groups: int, aggs: list[Agg]) -> dict[Agg, np.ndarray]:
        d_keys = sk.to_device(keys.astype(np.int32), self.stream)
        d_vals = sk.to_device(vals.astype(np.float32), self.stream)
        sums = self.arena.zeroed(AccSpec("sum", f32), groups)
        counts = self.arena.zeroed(AccSpec("count", f32), groups)
        sum_and_count.launch(prepared_for(len(keys), self.dev), self.stream, d_keys, d_vals, sums, counts)
        s, c = sums.to_numpy(self.stream), counts.to_numpy(self.stream)
        results: dict[Agg, np.ndarray] = {}
        for agg in aggs:
            match agg:
                case Agg.SUM:
                    results[agg] = s
                case Agg.COUNT:
                    results[agg] = c.astype(np.int64)
                case Agg.AVG:
                    results[agg] = np.divide(s, c, out=np.full_like(s, np.nan), where=c > 0)
        return results


def reference(keys: np.ndarray, vals: np.ndarray, groups: int) -> tuple[np.ndarray, np.ndarray]:
    ok = keys >= 0
    s = np.bincount(keys[ok], weights=vals[ok], minlength=groups)
    c = np.bincount(keys[ok], minlength=groups)
    return s, c


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    op = GroupByOperator(dev, stream, AccumulatorArena(stream))
    rng = np.random.default_rng(3)
    for refresh in range(2):
        groups = 24
        keys = rng.integers(0, groups, 2000).astype(np.int32)
        keys[rng.random(2000) < 0.1] = -1
        vals = rng.integers(1, 50, 2000).astype(np.float32)
        out = op.execute(keys, vals, groups, [Agg.SUM, Agg.COUNT, Agg.AVG])
        want_s, want_c = reference(keys, vals, groups)
        np.testing.assert_allclose(out[Agg.SUM], want_s, rtol=1e-5)
        np.testing.assert_array_equal(out[Agg.COUNT], want_c)
        best = int(np.nanargmax(out[Agg.AVG]))
        print(f"refresh {refresh}: {int(want_c.sum())} rows, best group {best} avg {out[Agg.AVG][best]:.2f}")
    print(f"arena hits: {op.arena.hits}")


if __name__ == "__main__":
    main()
