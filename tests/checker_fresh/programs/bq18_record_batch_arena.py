# fresh-expect: clean
# fresh-known-false-alarm: cli,mypy false E0502 at 96 and false E0502 at 100: column views at `schema.index(name) * self.stride` of a cached property are computed bounds the checker does not compare (conservative: they may overlap)
# fresh-note: the batch layout rounds each column's slot size up to the alignment, so column views never overlap and each launch writes a slot it does not read.
"""Record batches laid out in one device allocation, Arrow-style: every column is an aligned slot.

A batch of `rows` rows for a schema reserves one allocation and hands out per-column views into it.  Derived
columns (`extended = price * qty`, `with_tax = extended * (1 + rate)`) are computed by SIMT kernels that read
input column views and write the output column's view in place, so a query touches a single allocation.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ALIGN = 64  # elements per alignment unit (256 bytes of f32)
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(a) == len(out)", "len(b) == len(out)"))
def mul_cols(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * b[i])


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(a) == len(out)",))
def add_rate(a: Slice[f32], out: DisjointSlice[f32], rate: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * (f32(1.0) + rate))


@dataclass(frozen=True)
class Schema:
    columns: tuple[str, ...]

    def index(self, name: str) -> int:
        return self.columns.index(name)


def _padded(rows: int) -> int:
    return -(-rows // ALIGN) * ALIGN  # round up: a slot must hold every row


class RecordBatch:
    def __init__(self, schema: Schema, rows: int, stream: sk.Stream) -> None:
        self.schema = schema
        self.rows = rows
        self.stream = stream
        self.arena = sk.zeros(self.stride * len(schema.columns) + ALIGN, f32, stream)

    @functools.cached_property
    def stride(self) -> int:
        return max(_padded(self.rows), ALIGN)

    def column(self, name: str) -> sk.DeviceBuffer:
        start = self.schema.index(name) * self.stride
        return self.arena.view(start, start + self.rows)

    def fill(self, data: dict[str, np.ndarray]) -> "RecordBatch":
        for name, values in data.items():
            self.column(name).copy_from_numpy(values.astype(np.float32))
        return self

    def read(self, names: Iterable[str]) -> dict[str, np.ndarray]:
        return {name: self.column(name).to_numpy(self.stream) for name in names}


class Projector:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self._launches: dict[tuple[str, int], simt.PreparedLaunch] = {}

    def _prepared(self, kernel: Any, rows: int) -> simt.PreparedLaunch:
        key = (kernel.name, rows)
        if key not in self._launches:
            self._launches[key] = kernel.prepare(simt.LaunchConfig1D.for_len(rows, block=BLOCK), self.dev)
        return self._launches[key]

    def product(self, batch: RecordBatch, left: str, right: str, into: str) -> None:
        a, b, out = batch.column(left), batch.column(right), batch.column(into)
        mul_cols.launch(self._prepared(mul_cols, batch.rows), self.stream, a, b, out)

    def with_rate(self, batch: RecordBatch, src: str, into: str, rate: float) -> None:
        a, out = batch.column(src), batch.column(into)
        add_rate.launch(self._prepared(add_rate, batch.rows), self.stream, a, out, rate)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    schema = Schema(("price", "qty", "extended", "with_tax"))
    projector = Projector(dev, stream)
    rng = np.random.default_rng(17)
    for rows in (1024, 1000):
        price = rng.random(rows).astype(np.float32) * 20
        qty = rng.integers(1, 6, rows).astype(np.float32)
        batch = RecordBatch(schema, rows, stream).fill({"price": price, "qty": qty})
        projector.product(batch, "price", "qty", "extended")
        projector.with_rate(batch, "extended", "with_tax", 0.08)
        got = batch.read(["extended", "with_tax"])
        np.testing.assert_allclose(got["extended"], price * qty, rtol=1e-6)
        np.testing.assert_allclose(got["with_tax"], price * qty * np.float32(1.08), rtol=1e-5)
        print(f"{rows} rows: stride {batch.stride}, revenue with tax {got['with_tax'].sum():.2f}")


if __name__ == "__main__":
    main()
