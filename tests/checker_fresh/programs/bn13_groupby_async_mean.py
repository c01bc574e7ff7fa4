# fresh-expect: E0502 at line 89
# fresh-known-false-alarm: cli,mypy false E0499 at 80 and false E0499 at 83: a loop over `chain(aggs, [...])` whose `match` starts a pending op for the "sum" and "count" cases: the loop may take one case twice, the items not being known to differ
# fresh-note: Group-by aggregation that queues the sum and count launches with launch_async and drains them at the end; the "mean" aggregation is computed inside the same loop, so its launch reads the `sums` buffer that the still-pending sum op borrows mutably (E0502).
"""Group-by aggregation (sum / count / mean of trade notional per sector) over device columns (SIMT track)."""
from __future__ import annotations

from collections import OrderedDict
from itertools import chain

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

GROUPS = 8


@simt.kernel
@simt.launch_contract(block=128)
def group_sum(keys: Slice[i32], vals: Slice[f32], sums: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(keys):
        sums.fetch_add(keys[i], vals[i])


@simt.kernel
@simt.launch_contract(block=128)
def group_count(keys: Slice[i32], counts: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(keys):
        counts.fetch_add(keys[i], u32(1))


@simt.kernel
@simt.launch_contract(block=32)
def group_mean(sums: Slice[f32], counts: Slice[u32], mean: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    g = idx.get()
    if (o := mean.get_mut(idx)) is not None:
        n = counts[g]
        o.set(sums[g] / f32(max(n, u32(1))))


class Table:
    def __init__(self, stream: sk.Stream, **cols: np.ndarray) -> None:
        self.stream = stream
        self.cols = OrderedDict((k, sk.to_device(v, stream)) for k, v in cols.items())
        self.rows = len(next(iter(cols.values())))

    def __getitem__(self, name: str) -> sk.DeviceBuffer:
        return self.cols[name]

    def __contains__(self, name: str) -> bool:
        return name in self.cols

    def __len__(self) -> int:
        return self.rows


class GroupBy:
    def __init__(self, table: Table, key: str, dev: sk.Device) -> None:
        self.table = table
        self.key = key
        self.dev = dev
        self.row_cfg = simt.LaunchConfig1D.for_len(len(table), block=128)
        self.group_cfg = simt.LaunchConfig1D.for_len(GROUPS, block=32)

    def aggregate(self, value: str, aggs: tuple[str, ...]) -> dict[str, np.ndarray]:
        s = self.table.stream
        keys, vals = self.table[self.key], self.table[value]
        sums = sk.zeros(GROUPS, f32, s)
        counts = sk.zeros(GROUPS, u32, s)
        outputs: dict[str, sk.DeviceBuffer] = {}
        pending = []
        for agg in chain(aggs, ["count"] if "mean" in aggs and "count" not in aggs else []):
            match agg:
                case "sum":
                    pending.append(group_sum.launch_async(group_sum.prepare(self.row_cfg, self.dev), keys, vals, sums))
                    outputs["sum"] = sums
                case "count":
                    pending.append(group_count.launch_async(group_count.prepare(self.row_cfg, self.dev), keys, counts))
                    outputs["count"] = counts
                case "mean":
                    if "sum" not in outputs:
                        raise ValueError("mean needs sum first")
                    mean = sk.zeros(GROUPS, f32, s)
                    group_mean.launch(group_mean.prepare(self.group_cfg, self.dev), s, sums, counts, mean)
                    outputs["mean"] = mean
                case other:
                    raise KeyError(other)
        if pending:
            sk.zip(*pending).sync_on(s)
        return {name: buf.to_numpy(s) for name, buf in outputs.items()}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    n = 400
    sector = rng.integers(0, GROUPS, n).astype(np.int32)
    notional = rng.lognormal(10, 1, n).astype(np.float32) / 1e4
    table = Table(stream, sector=sector, notional=notional)
    result = GroupBy(table, "sector", dev).aggregate("notional", ("sum", "mean"))
    want_sum = np.bincount(sector, weights=notional, minlength=GROUPS)
    want_cnt = np.bincount(sector, minlength=GROUPS)
    assert np.allclose(result["sum"], want_sum, rtol=1e-4)
    assert np.allclose(result["mean"], want_sum / np.maximum(want_cnt, 1), rtol=1e-4)
    for g in sorted(range(GROUPS), key=lambda g: -result["sum"][g])[:3]:
        print(f"sector {g}: total {result['sum'][g]:.2f}, mean {result['mean'][g]:.3f}, n={result['count'][g]}")


if __name__ == "__main__":
    main()
