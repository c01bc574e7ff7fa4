# fresh-expect: E0382 at line 54
# fresh-known-miss: cli,mypy a query plan of operator objects whose `BinaryOp.apply` keeps only `.first()` of the launch, so the table columns it passed are never handed back: moves made by a method of an object taken from a list of operators are not followed into the next operator
# fresh-note: A query plan of operator objects derives tax and net columns of a columnar table with tile launches; BinaryOp.apply keeps only `.first()` of each launch, so the input columns moved into the first launch are never handed back and the second operator launches with the moved `gross` column.
"""A columnar query plan on the Tile track: derived columns from binary operators, then an atomic total."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import AtomicTensor, Partition, Tensor

ROWS = 192
TILE = 64


@tile.kernel
def mul_cols(out: Partition[f32], a: Tensor[f32], b: Tensor[f32]) -> None:
    out.store(tile.load_like(a, out) * tile.load_like(b, out))


@tile.kernel
def sub_cols(out: Partition[f32], a: Tensor[f32], b: Tensor[f32]) -> None:
    out.store(tile.load_like(a, out) - tile.load_like(b, out))


@tile.kernel
def col_total(col: Partition[f32], total: AtomicTensor[f32]) -> None:
    tile.atomic_add(total, (0,), tile.sum(col.load()))


KERNELS = {"mul": mul_cols, "sub": sub_cols}


@dataclass
class Table:
    stream: sk.Stream
    columns: dict[str, tile.Tensor] = field(default_factory=dict)
    totals: dict[str, float] = field(default_factory=dict)


@dataclass
class BinaryOp:
    kind: str
    into: str
    left: str
    right: str

    def apply(self, t: Table) -> None:
        out = tile.zeros((ROWS,), f32).partition((TILE,))
        op = KERNELS[self.kind](out, t.columns[self.left], t.columns[self.right])
        t.columns[self.into] = op.first().sync_on(t.stream).unpartition()


@dataclass
class Total:
    column: str

    def apply(self, t: Table) -> None:
        col, total = col_total(t.columns[self.column].partition((TILE,)), tile.zeros((1,), f32)).sync_on(t.stream)
        t.columns[self.column] = col.unpartition()
        t.totals[self.column] = float(total.to_numpy(t.stream)[0])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(30)
    gross = rng.integers(10, 500, ROWS).astype(np.float32)
    rate = rng.choice(np.array([0.0, 0.125, 0.25], np.float32), ROWS)
    table = Table(stream)
    table.columns["gross"], table.columns["tax_rate"] = sk.zip(tile.from_numpy(gross), tile.from_numpy(rate)).sync_on(stream)
    plan = [BinaryOp("mul", "tax", "gross", "tax_rate"), BinaryOp("sub", "net", "gross", "tax"), Total("net")]
    for step in plan:
        step.apply(table)
    want = gross - gross * rate
    np.testing.assert_allclose(table.columns["net"].to_numpy(stream), want)
    assert abs(table.totals["net"] - float(want.sum())) < 1e-2 * float(want.sum())
    print(f"plan of {len(plan)} operators; net revenue {table.totals['net']:.2f} over {ROWS} rows")


if __name__ == "__main__":
    main()
