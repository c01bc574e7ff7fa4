"""Rewrites of the tile IR that a tuned kernel does by hand, so the plain program runs as fast.

The online-softmax attention written the plain way (`examples/attention_tile.py`) calls `tile.exp(s - m)` and
masks with `(cols + j * BN <= rows) | (causal == 0)`; the tuned bench kernel writes `tile.exp2(s * scale2 - m)`
and `cols <= limit`.  On the H200 the plain form ran at 0.8x of the tuned one, almost all of it in `exp`:
libdevice's `expf` is a range-reduced polynomial of about ten instructions around an `ex2`, where `exp2` under
`fast_math` is one `ex2.approx.ftz`.  Two rewrites, run on the IR between the front end and the lowering:

* **exp as exp2, with the subtraction folded into one FMA** (`fast_math` only, since it changes the rounding):
  `exp(a - b)` becomes `exp2(a * log2(e) - b * log2(e))`.  When `b` is a per-row tile (the running max,
  (BM, 1)) `b * log2(e)` is one multiply per row and `a * log2(e) - ...` contracts into one `fma` per element
  (`fast_math` allows contraction), so a score costs one FMA and one `ex2.approx.ftz`, as in the tuned kernel.
  Any other `exp(x)` becomes `exp2(x * log2(e))`.  Special values are kept: +-inf and NaN pass through the
  multiplications unchanged in kind, so `exp(-inf - m)` is still 0 and `exp(-inf - -inf)` still NaN.  Error:
  the exponent `a*L - b*L` is off by at most `(|a| + |b|) * L * 2^-24` (one rounding of `b*L`, one of the FMA)
  where `a - b` was exact, and `ex2.approx.ftz` adds 2 ulp; for softmax scores (|a|, |b| below ~100) that is a
  relative error under 1e-5 per probability, well inside bf16 (docs/numerics.md, fast_math).
* **a mask as one compare against a per-row limit** (exact, always): `(A <= B) | u`, with `u` a scalar bool
  and `B` a tile smaller than the mask (a column (BM, 1) of row positions), becomes
  `A <= where(u, MAX, B)` with MAX the largest value of the operands' integer dtype (`A >= where(u, MIN, B)`
  for `>=`): when `u` holds, `A <= MAX` is true for every `A`, else it is `A <= B`.  The select runs once per
  row; per element one compare remains instead of a compare and an or.

What is not rewritten: the running max stays on the scaled scores (`max(s * scale)` equals
`scale * max(s)` only for `scale > 0`, which a runtime parameter does not promise), so the plain program keeps
one multiply per score that the tuned one avoids.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from safekernels.codegen.tile.ir import ForOp, Op, ScalarType, TileKernelIR, Value
from safekernels.dtypes import DType, dtype_of
from safekernels.tile.ops import TileType

LOG2E = 1.4426950408889634
_F32 = dtype_of("f32")
_BOOL = dtype_of("bool")


@dataclass
class RewriteCounts:
    """How many of each rewrite applied (tests and `SAFEKERNELS_DUMP_DIR` readers look at these)."""

    exp2: int = 0
    exp2_fma: int = 0
    mask_limit: int = 0


def _all_ops(ops: list[Op]) -> Iterator[Op]:
    for op in ops:
        yield op
        if isinstance(op, ForOp):
            yield from _all_ops(op.body)


def _max_id(kir: TileKernelIR) -> int:
    top = 0
    for op in _all_ops(kir.body):
        for v in (*op.args, op.result):
            if v is not None:
                top = max(top, v.id)
        if isinstance(op, ForOp):
            for c in op.carried:
                for v in (c.init, c.phi, c.update, c.out):
                    if v is not None:
                        top = max(top, v.id)
            if op.var is not None:
                top = max(top, op.var.id)
    return top


def _is_f32_tile(v: Value) -> bool:
    return isinstance(v.type, TileType) and v.type.dtype == _F32


def _size(v: Value) -> int:
    n = 1
    if isinstance(v.type, TileType):
        for s in v.type.shape:
            n *= s
    return n


class _Rewriter:
    def __init__(self, kir: TileKernelIR, fast_math: bool) -> None:
        self.kir = kir
        self.fast_math = fast_math
        self.ids = itertools.count(_max_id(kir) + 1)
        self.defs: dict[int, Op] = {op.result.id: op for op in _all_ops(kir.body) if op.result is not None}
        self.counts = RewriteCounts()

    def value(self, ty: TileType | ScalarType) -> Value:
        return Value(next(self.ids), ty)

    def emit(self, out: list[Op], kind: str, args: list[Value], ty: TileType | ScalarType, line: int,
             **attrs: object) -> Value:  # fmt: skip
        result = self.value(ty)
        op = Op(kind, args, result, dict(attrs), line)
        out.append(op)
        self.defs[result.id] = op
        return result

    def block(self, ops: list[Op]) -> list[Op]:
        out: list[Op] = []
        for op in ops:
            if isinstance(op, ForOp):
                op.body = self.block(op.body)
            elif op.kind == "exp" and self.fast_math:
                self.exp_to_exp2(op, out)
            elif op.kind == "bitor":
                self.mask_limit(op, out)
            out.append(op)
        return out

    # -- exp(a - b) -> exp2(a * L - b * L) ---------------------------------------------------------------------
    def exp_to_exp2(self, op: Op, out: list[Op]) -> None:
        x = op.args[0]
        if op.result is None or not _is_f32_tile(op.result) or not _is_f32_tile(x):
            return
        log2e = self.emit(out, "const", [], ScalarType(_F32), op.line, value=LOG2E)
        producer = self.defs.get(x.id)
        if producer is not None and producer.kind == "sub" and all(_is_f32_tile(a) for a in producer.args):
            a, b = producer.args
            assert isinstance(a.type, TileType) and isinstance(b.type, TileType)
            a2 = self.emit(out, "mul", [a, log2e], a.type, op.line)
            b2 = self.emit(out, "mul", [b, log2e], b.type, op.line)
            arg = self.emit(out, "sub", [a2, b2], x.type, op.line)
            self.counts.exp2_fma += 1
        else:
            assert isinstance(x.type, TileType)
            arg = self.emit(out, "mul", [x, log2e], x.type, op.line)
        op.kind = "exp2"
        op.args = [arg]
        self.counts.exp2 += 1

    # -- (A <= B) | u -> A <= where(u, MAX, B) -------------------------------------------------------------------
    def mask_limit(self, op: Op, out: list[Op]) -> None:
        if op.result is None or not isinstance(op.result.type, TileType) or op.result.type.dtype != _BOOL:
            return
        for cmp_value, flag in (op.args, op.args[::-1]):
            if not (isinstance(flag.type, ScalarType) and flag.type.dtype == _BOOL):
                continue
            compare = self.defs.get(cmp_value.id)
            if compare is None or compare.kind not in ("le", "ge") or cmp_value.type != op.result.type:
                continue
            left, right = compare.args
            dts = {v.type.dtype for v in (left, right) if isinstance(v.type, TileType | ScalarType)}
            if len(dts) != 1:
                continue
            dt = next(iter(dts))
            if dt is None or dt.kind not in "iu":
                continue
            # substitute the smaller side (a per-row or per-column limit): `A <= B` is true when B is MAX,
            # `A >= B` when B is MIN; with the sides swapped the extremes swap too
            full = _size(op.result)
            for side in (1, 0):
                limit = compare.args[side]
                if not isinstance(limit.type, TileType) or _size(limit) >= full:
                    continue
                upper = (compare.kind == "le") == (side == 1)
                extreme = _extreme(dt, upper)
                const = self.emit(out, "const", [], ScalarType(dt), op.line, value=extreme)
                widened = self.emit(out, "where", [flag, const, limit], limit.type, op.line)
                args = list(compare.args)
                args[side] = widened
                op.kind = compare.kind
                op.args = args
                op.attrs = dict(compare.attrs)
                self.counts.mask_limit += 1
                return


def _extreme(dt: DType, upper: bool) -> int:
    if dt.kind == "u":
        return (1 << dt.bits) - 1 if upper else 0
    return (1 << (dt.bits - 1)) - 1 if upper else -(1 << (dt.bits - 1))


def rewrite_tile_ir(kir: TileKernelIR, *, fast_math: bool) -> RewriteCounts:
    """Apply the rewrites in place (see the module docstring); returns how many applied."""
    rewriter = _Rewriter(kir, fast_math)
    kir.body = rewriter.block(kir.body)
    return rewriter.counts
