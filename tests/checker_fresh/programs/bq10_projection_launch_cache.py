# fresh-expect: clean
# fresh-note: the launch cache is keyed by kernel name and row count, so each operator's kernel is launched with a launch it prepared itself.
"""Vectorized projection: evaluate arithmetic expressions over device columns, one SIMT kernel per operator.

`SELECT (price + fee) * qty - rebate` is parsed into a small expression tree and evaluated bottom-up; each
binary node launches the kernel for its operator over two input columns into a fresh output column.
Prepared launches are cached so evaluating the same projection over many batches validates each launch once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def col_add(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def col_mul(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * b[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def col_sub(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] - b[i])


OPERATORS: dict[str, Any] = {"+": col_add, "*": col_mul, "-": col_sub}


@dataclass(frozen=True)
class Col:
    name: str


@dataclass(frozen=True)
class BinOp:
    op: str
    left: "Expr"
    right: "Expr"


Expr = Union[Col, BinOp]


class LaunchCache:
    """Prepared launches, validated once per kernel and batch shape."""

    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self._cache: dict[tuple[str, int], Any] = {}
        self.misses = 0

    def get(self, kernel: Any, rows: int) -> Any:
        key = (kernel.name, rows)  # a PreparedLaunch is only valid for the kernel that prepared it
        prepared = self._cache.get(key)
        if prepared is None:
            self.misses += 1
            prepared = kernel.prepare(simt.LaunchConfig1D.for_len(rows, block=BLOCK), self.dev)
            self._cache[key] = prepared
        return prepared


class Evaluator:
    def __init__(self, stream: sk.Stream, launches: LaunchCache) -> None:
        self.stream = stream
        self.launches = launches

    def eval(self, expr: Expr, batch: dict[str, sk.DeviceBuffer]) -> sk.DeviceBuffer:
        match expr:
            case Col(name):
                return batch[name]
            case BinOp(op, left, right):
                a = self.eval(left, batch)
                b = self.eval(right, batch)
                out = sk.empty(len(a), f32, self.stream)
                kernel = OPERATORS[op]
                kernel.launch(self.launches.get(kernel, len(a)), self.stream, a, b, out)
                return out
        raise TypeError(f"not an expression: {expr!r}")


def parse(text: str) -> Expr:
    """A tiny precedence-climbing parser for `+ - *` over column names and parentheses."""
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    pos = 0

    def atom() -> Expr:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok == "(":
            inner = binary(0)
            pos += 1  # ")"
            return inner
        return Col(tok)

    def binary(min_prec: int) -> Expr:
        nonlocal pos
        prec = {"+": 1, "-": 1, "*": 2}
        left = atom()
        while pos < len(tokens) and tokens[pos] in prec and prec[tokens[pos]] >= min_prec:
            op = tokens[pos]
            pos += 1
            left = BinOp(op, left, binary(prec[op] + 1))
        return left

    return binary(0)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    evaluator = Evaluator(stream, LaunchCache(dev))
    expr = parse("(price + fee) * qty - rebate")
    rng = np.random.default_rng(2)
    for batch_no in range(3):
        host = {name: rng.random(900).astype(np.float32) for name in ("price", "fee", "qty", "rebate")}
        batch = {name: sk.to_device(values, stream) for name, values in host.items()}
        got = evaluator.eval(expr, batch).to_numpy(stream)
        want = (host["price"] + host["fee"]) * host["qty"] - host["rebate"]
        np.testing.assert_allclose(got, want, rtol=1e-6)
        print(f"batch {batch_no}: sum {got.sum():.3f}, launch cache misses {evaluator.launches.misses}")


if __name__ == "__main__":
    main()
