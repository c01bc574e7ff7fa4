# fresh-expect: E0502 at line 57
# fresh-note: Registered queries are re-run every tick into result slots cached by query key; cache_key leaves out the filter threshold, so a refining query derived from another gets its parent's slot as output while reading that same slot as input.
"""A per-tick result cache for filter/scale queries over a streaming revenue column (SIMT)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 256


@simt.kernel
@simt.launch_contract(block=64)
def filter_scale(src: Slice[f32], out: DisjointSlice[f32], factor: f32, min_value: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        if src[i] >= min_value:
            o.set(src[i] * factor)
        else:
            o.set(f32(0.0))


@dataclass(frozen=True)
class Query:
    column: str
    factor: float
    min_value: float
    parent: Query | None = None


def cache_key(q: Query) -> str:
    return f"{q.column}*{q.factor:g}"


class ResultCache:
    def __init__(self, stream: sk.Stream, prep: simt.PreparedLaunch) -> None:
        self.stream = stream
        self.prep = prep
        self.slots: dict[str, sk.DeviceBuffer] = {}

    def slot(self, key: str) -> sk.DeviceBuffer:
        if key not in self.slots:
            self.slots[key] = sk.zeros(N, f32, self.stream)
        return self.slots[key]

    def execute(self, q: Query, table: dict[str, sk.DeviceBuffer]) -> sk.DeviceBuffer:
        src = self.slot(cache_key(q.parent)) if q.parent is not None else table[q.column]
        out = self.slot(cache_key(q))
        filter_scale.launch(self.prep, self.stream, src, out, q.factor, q.min_value)
        return out


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    cache = ResultCache(stream, filter_scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev))
    base = Query("revenue", 1.0, 5.0)
    queries = [base, Query("revenue", 1.0, 20.0, parent=base), Query("revenue", 0.92, 0.0)]
    for tick in range(2):
        revenue = rng.uniform(0.0, 40.0, N).astype(np.float32)
        table = {"revenue": sk.to_device(revenue, stream)}
        answers = {cache_key(q): cache.execute(q, table).to_numpy(stream) for q in queries}
        big = np.where(revenue >= 20.0, revenue, 0.0)
        np.testing.assert_allclose(answers[cache_key(queries[1])], big)
        print(f"tick {tick}: {len(cache.slots)} cached results, {int((big > 0).sum())} large orders")


if __name__ == "__main__":
    main()
