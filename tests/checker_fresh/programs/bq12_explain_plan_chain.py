# fresh-expect: clean
# fresh-note: EXPLAIN only describes the plan and builds no ops, so every chain that is built is run by sync_on.
"""A tiny query engine that compiles a plan tree into one lazy chain of tile kernels.

`Scan -> Filter -> Aggregate` becomes `block_sum(range_filter(from_numpy(col)))`, built as DeviceOps and run
with a single `sync_on`.  EXPLAIN prints the plan with row estimates; EXPLAIN ANALYZE also runs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 128


@tile.kernel
def range_filter(out: Partition[f32], x: Tensor[f32], lo: f32, hi: f32) -> None:
    v = tile.load_like(x, out)
    out.store(tile.where((v >= lo) & (v < hi), v, 0.0))


@tile.kernel
def block_sum(partials: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((tile.bid(0),), (TILE,))
    partials.store(tile.sum(t, axis=0, keepdims=True))


@dataclass(frozen=True)
class Scan:
    column: str


@dataclass(frozen=True)
class Filter:
    child: "Node"
    lo: float
    hi: float


@dataclass(frozen=True)
class Aggregate:
    child: "Node"


Node = Union[Scan, Filter, Aggregate]


class Engine:
    def __init__(self, stream: sk.Stream, table: dict[str, np.ndarray]) -> None:
        self.stream = stream
        self.table = table
        self.rows = len(next(iter(table.values())))

    def _blocks(self) -> int:
        return -(-self.rows // TILE)

    def _build(self, node: Node) -> Any:
        match node:
            case Scan(column):
                return tile.from_numpy(self.table[column])
            case Filter(child, lo, hi):
                out = tile.zeros((self.rows,), f32).partition((TILE,))
                return range_filter(out, self._build(child), lo, hi).first().unpartition()
            case Aggregate(child):
                partials = tile.zeros((self._blocks(),), f32).partition((1,))
                return block_sum(partials, self._build(child))
        raise TypeError(node)

    def _describe(self, node: Node, depth: int = 0) -> list[str]:
        pad = "  " * depth
        match node:
            case Scan(column):
                return [f"{pad}Scan {column} rows={self.rows}"]
            case Filter(child, lo, hi):
                return [f"{pad}Filter {lo} <= v < {hi}", *self._describe(child, depth + 1)]
            case Aggregate(child):
                return [f"{pad}Aggregate sum blocks={self._blocks()}", *self._describe(child, depth + 1)]
        raise TypeError(node)

    def explain(self, plan: Node) -> str:
        lines = self._describe(plan)  # describe only: a built chain would have to be run
        lines.append(f"-> {self._blocks()} partial sums of {TILE} rows")
        return "\n".join(lines)

    def run(self, plan: Node) -> float:
        chain = self._build(plan)
        partials, _ = chain.sync_on(self.stream)
        return float(partials.unpartition().to_numpy(self.stream).sum())


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(9)
    table = {"amount": rng.random(1000).astype(np.float32) * 100, "weight": rng.random(1000).astype(np.float32)}
    engine = Engine(stream, table)
    plans = {
        "mid amounts": Aggregate(Filter(Scan("amount"), 20.0, 80.0)),
        "all weights": Aggregate(Scan("weight")),
    }
    for title, plan in plans.items():
        print(f"EXPLAIN {title}:\n{engine.explain(plan)}")
        got = engine.run(plan)
        col = table["amount"] if "amount" in title else table["weight"]
        want = col[(col >= 20) & (col < 80)].sum() if isinstance(plan.child, Filter) else col.sum()
        assert abs(got - want) <= 1e-3 * max(1.0, abs(want)), (got, want)
        print(f"ANALYZE {title}: {got:.3f}")


if __name__ == "__main__":
    main()
