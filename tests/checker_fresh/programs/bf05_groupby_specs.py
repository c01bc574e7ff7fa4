# fresh-expect: clean
# fresh-note: Group-by sums over a columnar sales table with AtomicSlice; specs without `into` default their output to a fresh `<value>_by_<key>` column, so no launch aliases its input.
"""Group-by aggregation of a columnar sales table: one atomic group-sum kernel per aggregate spec."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, Slice, thread

REGIONS = 6


@simt.kernel
@simt.launch_contract(block=64)
def group_sum(keys: Slice[i32], vals: Slice[f32], sums: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(keys):
        sums.fetch_add(keys[i], vals[i])


@dataclass
class AggSpec:
    key: str
    value: str
    into: str | None = None


@dataclass
class ColumnTable:
    stream: sk.Stream
    rows: int
    columns: dict[str, sk.DeviceBuffer] = field(default_factory=dict)

    def load(self, name: str, data: np.ndarray) -> None:
        self.columns[name] = sk.to_device(data, self.stream)

    def output(self, name: str, size: int) -> sk.DeviceBuffer:
        if name not in self.columns:
            self.columns[name] = sk.zeros(size, f32, self.stream)
        return self.columns[name]


def output_name(spec: AggSpec) -> str:
    return spec.into if spec.into is not None else f"{spec.value}_by_{spec.key}"


def run_aggregations(table: ColumnTable, specs: list[AggSpec], dev: sk.Device) -> dict[str, np.ndarray]:
    prepared = group_sum.prepare(simt.LaunchConfig1D.for_len(table.rows, block=64), dev)
    results: dict[str, np.ndarray] = {}
    for spec in specs:
        name = output_name(spec)
        sums = table.output(name, REGIONS)
        group_sum.launch(prepared, table.stream, table.columns[spec.key], table.columns[spec.value], sums)
        results[name] = sums.to_numpy(table.stream)[:REGIONS]
    return results


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    n = 400
    table = ColumnTable(stream, n)
    region = rng.integers(0, REGIONS, n).astype(np.int32)
    revenue = rng.uniform(1.0, 50.0, n).astype(np.float32)
    units = rng.integers(1, 9, n).astype(np.float32)
    table.load("region", region)
    table.load("revenue", revenue)
    table.load("units", units)
    specs = [AggSpec("region", "revenue", "revenue_by_region"), AggSpec("region", "units")]
    results = run_aggregations(table, specs, dev)
    want = np.bincount(region, weights=revenue, minlength=REGIONS)
    np.testing.assert_allclose(results["revenue_by_region"], want, rtol=1e-4)
    for name, sums in sorted(results.items()):
        print(f"{name}: {np.round(sums, 1)}")


if __name__ == "__main__":
    main()
