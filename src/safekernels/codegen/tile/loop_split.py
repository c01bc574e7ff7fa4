"""Split a loop where a `tile.where` mask is provably all-true, so those iterations run without it.

The online-softmax attention written the plain way masks every key block with
`tile.where((cols + j * BN <= rows) | (causal == 0), s, -inf)`: a compare and a select per score (about 138 of
the loop's 828 SASS instructions at d = 128), paid also when `causal` is 0 and, when it is 1, on every block
below the diagonal, where the mask keeps every score.  FlashAttention writes two loops by hand; this pass has the
compiler do it.  For a `for j in range(start, stop)` loop (step 1) whose body has a `where(cond, x, other)` with
`x` of the result's type, it derives a run-time split point `P` in `[start, stop]` such that `cond` is all-true
for every `j` in `[start, P)`, and marks the loop (`ForOp.attrs["split"]`): the lowering (`codegen.tile.loops`)
emits the iterations `[start, P)` from a copy of the body in which such `where`s are the identity (exact: a
select under an all-true mask returns `x`) and the mask's own arithmetic is dropped, then `[P, stop)` from the
body as written, with the carried values (the running max, the denominator, the accumulator) and the
iteration count flowing from the first loop into the second.  The operand double-buffering and its barrier
phases (`codegen.tile.wgmma_sync`) run once across both.

How `P` is proved (never guessed): each integer operand of the mask's compares is an interval plus an affine
function of `j`, `[lo, hi] + c * j + inv`, from `tile.iota` (`[0, n - 1]`), constants, reshapes, `+`, `-`,
multiplication by a constant, the loop variable and loop-invariant scalars (`inv`, evaluated once before the
loop in 64-bit index arithmetic).  `L <= R` holds for every element when `max L <= min R`, i.e.
`(c_L - c_R) * j <= (R.lo - L.hi) + inv_R - inv_L`: for `c_L > c_R` a prefix of the iterations, ending at a
floor division (`j * BN + BN - 1 <= qb * BM` for the causal mask); for `c_L == c_R` all iterations or none.
`<`, `>=`, `>` are the same with the sides swapped or a bound moved by one.  A loop-invariant scalar `u` in
`A | u` makes the whole range mask-free when it holds (`P = stop`: the loop is unswitched on `u`, the second
loop runs zero times), `A & u` none when it does not; a compare against the largest value of its dtype (the
per-row limit `where(u, MAX, rows)` that `codegen.tile.rewrites` makes of `(A <= rows) | u`) is all-true.
`|` of two masks takes the later split point, `&` the earlier.  The interval arithmetic is exact in the
integers, while the kernel computes the mask in its dtype (i32): the split point is therefore also limited, at
run time, to iterations for which every intermediate value of the analysed expression, at both ends of the
mask-free range (affine in `j`, so its extremes), lies in that dtype's range; where it does not, `P = start`
and every iteration keeps the mask.  Anything else (a mask that depends on loaded data, a decreasing bound, a
step other than 1) leaves the loop as written.

The CPU executor does not run this pass (it is a lowering optimization; both loops compute what the written
loop does).  `SAFEKERNELS_LOOP_SPLIT=0` (or `ENABLED = False`) turns it off; the compile cache keys on it.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from safekernels.codegen.tile.ir import INDEX, ForOp, Op, ScalarType, TileKernelIR, Value
from safekernels.dtypes import DType, dtype_of
from safekernels.tile.ops import TileType

ENABLED = os.environ.get("SAFEKERNELS_LOOP_SPLIT", "1") != "0"

_I64 = dtype_of("i64")
_BOOL = dtype_of("bool")
_SCALAR_KINDS = frozenset({"const", "scalar", "to_index", "scalar_cast"})
_SHAPE_KINDS = frozenset({"reshape", "broadcast_to", "expand_dims"})
#: ops of a mask that the mask-free body may drop once nothing in it reads them
_DROPPABLE = frozenset(
    {"const", "scalar", "to_index", "scalar_cast", "iota", "full", "reshape", "broadcast_to", "expand_dims",
     "add", "sub", "mul", "le", "lt", "ge", "gt", "eq", "ne", "bitor", "bitand", "where", "copy"}
)  # fmt: skip


@dataclass
class LoopSplit:
    """The mark on a split loop: iterations `[start, point)` run `free_body`, `[point, stop)` the body."""

    point: Value
    free_body: list[Op]
    masks: int  # how many `where`s the mask-free body drops


@dataclass
class SplitCounts:
    """What the pass did (tests read it)."""

    loops: int = 0
    masks: int = 0


@dataclass
class _Aff:
    """An integer tile or scalar: every element lies in `[lo, hi] + coef * j + inv` (`inv` an index Value)."""

    lo: int
    hi: int
    coef: int
    inv: Value | None
    checks: list[tuple[_Aff, DType]] = field(default_factory=list)  # values that must fit their dtype


def _all_ops(ops: list[Op]) -> Iterator[Op]:
    for op in ops:
        yield op
        if isinstance(op, ForOp):
            yield from _all_ops(op.body)


def _max_id(kir: TileKernelIR) -> int:
    top = 0
    for op in _all_ops(kir.body):
        vals: list[Value | None] = [*op.args, op.result]
        if isinstance(op, ForOp):
            vals.append(op.var)
            for c in op.carried:
                vals += [c.init, c.phi, c.update, c.out]
        top = max([top, *(v.id for v in vals if v is not None)])
    return top


def _int_dtype(v: Value) -> DType | None:
    """The integer dtype of `v` (i64 for an index), or None when it is not an integer."""
    dt = v.type.dtype
    if dt is None:
        return _I64
    return dt if dt.kind in ("i", "u") and dt != _BOOL else None


def _bounds(dt: DType) -> tuple[int, int]:
    if dt.kind == "u":
        return 0, (1 << dt.bits) - 1
    return -(1 << (dt.bits - 1)), (1 << (dt.bits - 1)) - 1


class _Splitter:
    def __init__(self, kir: TileKernelIR) -> None:
        self.kir = kir
        self.ids = itertools.count(_max_id(kir) + 1)
        self.defs: dict[int, Op] = {op.result.id: op for op in _all_ops(kir.body) if op.result is not None}
        self.counts = SplitCounts()
        # per loop being analysed
        self.loop: ForOp | None = None
        self.inside: set[int] = set()
        self.pre: list[Op] = []
        self.hoisted: dict[int, Value] = {}
        self.start: Value | None = None
        self.stop: Value | None = None

    # -- emitting index arithmetic before the loop ---------------------------------------------------------
    def emit(self, kind: str, args: list[Value], ty: ScalarType = INDEX, **attrs: object) -> Value:
        result = Value(next(self.ids), ty)
        op = Op(kind, args, result, dict(attrs), self.loop.line if self.loop is not None else 0)
        self.pre.append(op)
        self.defs[result.id] = op
        return result

    def const(self, value: int) -> Value:
        return self.emit("const", [], value=value)

    def binop(self, sym: str, a: Value, b: Value) -> Value:
        return self.emit("scalar", [a, b], op=sym)

    def affine(self, lo: int, coef: int, j: Value | None, inv: Value | None) -> Value:
        """`lo + coef * j + inv` as an index Value."""
        out = self.const(lo)
        if coef and j is not None:
            out = self.binop("+", out, self.binop("*", j, self.const(coef)))
        return out if inv is None else self.binop("+", out, inv)

    def flag(self, cond: Value) -> Value:
        """A scalar bool as the index 0 or 1."""
        cond = self.hoist(cond)
        return self.emit("to_index", [self.emit("scalar_cast", [cond], ScalarType(_I64), dtype=_I64)])

    def select(self, u: Value, if_true: Value, if_false: Value) -> Value:
        """`if_true if u else if_false`, by arithmetic (`if_false + (if_true - if_false) * u`)."""
        return self.binop("+", if_false, self.binop("*", self.binop("-", if_true, if_false), self.flag(u)))

    def ge0(self, x: Value) -> Value:
        return self.flag(self.emit("scalar", [x, self.const(0)], ScalarType(_BOOL), op=">=", operand=INDEX))

    # -- the affine interval of an integer expression ------------------------------------------------------
    def invariant_scalar(self, v: Value) -> bool:
        """`v` is a scalar that every iteration computes the same: defined before the loop, or in the body by
        scalar ops of such values (`causal == 0` written in the loop)."""
        if not isinstance(v.type, ScalarType) or v is self.loop_var():
            return False
        if v.id not in self.inside:
            return True
        op = self.defs.get(v.id)
        return op is not None and op.kind in _SCALAR_KINDS and all(self.invariant_scalar(a) for a in op.args)

    def hoist(self, v: Value) -> Value:
        """An invariant scalar (`invariant_scalar`) as a Value available before the loop: body ops recomputed."""
        if v.id not in self.inside:
            return v
        if v.id in self.hoisted:
            return self.hoisted[v.id]
        op = self.defs[v.id]
        assert isinstance(v.type, ScalarType)
        out = self.emit(op.kind, [self.hoist(a) for a in op.args], v.type, **op.attrs)
        self.hoisted[v.id] = out
        return out

    def loop_var(self) -> Value | None:
        return self.loop.var if self.loop is not None else None

    def aff(self, v: Value) -> _Aff | None:
        dt = _int_dtype(v)
        if dt is None:
            return None
        op = self.defs.get(v.id)
        if v is self.loop_var():
            return _Aff(0, 0, 1, None)
        if op is not None and op.kind == "const" and type(op.attrs.get("value")) is int:
            c = int(op.attrs["value"])
            return _Aff(c, c, 0, None)
        if self.invariant_scalar(v):  # a loop-invariant leaf
            if dt.bits > 64:
                return None
            inv = self.hoist(v)
            return _Aff(0, 0, 0, inv if v.type.dtype is None else self.emit("to_index", [inv]))
        if op is None:
            return None
        if op.kind == "iota" and isinstance(v.type, TileType):
            return _Aff(0, v.type.shape[0] - 1, 0, None)
        if op.kind == "full" and type(op.attrs.get("value")) is int:
            c = int(op.attrs["value"])
            return _Aff(c, c, 0, None)
        if op.kind in _SHAPE_KINDS:
            return self.aff(op.args[0])
        sym = {"add": "+", "sub": "-", "mul": "*"}.get(op.kind)
        if op.kind == "scalar":
            sym = op.attrs.get("op")
        if sym not in ("+", "-", "*") or len(op.args) != 2:
            return None
        a, b = (self.aff(x) for x in op.args)
        if a is None or b is None:
            return None
        out = self.combine(sym, a, b)
        if out is None:
            return None
        out.checks = a.checks + b.checks
        if dt.bits < 64:  # the result, and operands converted into it, must fit `dt` for the math to be exact
            out.checks.append((out, dt))
            for x, ax in zip(op.args, (a, b), strict=True):
                xdt = _int_dtype(x)
                if xdt is not None and xdt != dt:
                    out.checks.append((ax, dt))
        return out

    def combine(self, sym: str, a: _Aff, b: _Aff) -> _Aff | None:
        if sym == "+":
            return _Aff(a.lo + b.lo, a.hi + b.hi, a.coef + b.coef, self.add_inv(a.inv, b.inv, "+"))
        if sym == "-":
            return _Aff(a.lo - b.hi, a.hi - b.lo, a.coef - b.coef, self.add_inv(a.inv, b.inv, "-"))
        for x, c in ((a, b), (b, a)):  # `*`: by a compile-time constant only
            if c.lo == c.hi and c.coef == 0 and c.inv is None:
                k = c.lo
                lo, hi = sorted((x.lo * k, x.hi * k))
                inv = self.binop("*", x.inv, self.const(k)) if x.inv is not None else None
                return _Aff(lo, hi, x.coef * k, inv)
        return None

    def add_inv(self, a: Value | None, b: Value | None, sym: str) -> Value | None:
        if b is None:
            return a
        if a is None:
            return b if sym == "+" else self.binop("-", self.const(0), b)
        return self.binop(sym, a, b)

    # -- the all-true prefix of a mask ---------------------------------------------------------------------
    def prefix(self, cond: Value) -> Value | None:
        """An index Value `P` in `[start, stop]` with `cond` all-true for `j` in `[start, P)`, or None."""
        assert self.start is not None and self.stop is not None
        op = self.defs.get(cond.id)
        if op is None:
            return None
        if op.kind in ("bitor", "bitand") and len(op.args) == 2:
            return self.logical(op)
        if op.kind in ("le", "lt", "ge", "gt") and len(op.args) == 2:
            left, right = op.args
            if op.kind in ("ge", "gt"):
                left, right = right, left
            return self.compare(left, right, op.kind in ("lt", "gt"))
        return None

    def logical(self, op: Op) -> Value | None:
        assert self.start is not None and self.stop is not None
        is_or = op.kind == "bitor"
        a, b = op.args
        for mask, u in ((a, b), (b, a)):
            if self.invariant_scalar(u) and u.type == ScalarType(_BOOL):
                rest = self.prefix(mask)
                if is_or:  # `mask | u`: every iteration when u holds (the loop is unswitched on u)
                    return self.select(u, self.stop, rest if rest is not None else self.start)
                return None if rest is None else self.select(u, rest, self.start)
        pa, pb = self.prefix(a), self.prefix(b)
        if is_or:
            if pa is None or pb is None:
                return pa if pb is None else pb
            return self.emit("scalar", [pa, pb], op="max")
        if pa is None or pb is None:
            return None
        return self.emit("scalar", [pa, pb], op="min")

    def compare(self, left: Value, right: Value, strict: bool) -> Value | None:
        """`left <= right` (`<` when strict) for every element."""
        assert self.start is not None and self.stop is not None
        for side in (right, left):  # a per-row limit `where(u, EXTREME, rows)` on either side
            wop = self.defs.get(side.id)
            if wop is not None and wop.kind == "where" and self.invariant_scalar(wop.args[0]):
                u, x, y = wop.args
                if x.type != side.type and not isinstance(x.type, ScalarType):
                    return None
                pair = (left, x) if side is right else (x, right)
                pair2 = (left, y) if side is right else (y, right)
                px = self.compare(*pair, strict)
                py = self.compare(*pair2, strict)
                return self.select(u, px if px is not None else self.start, py if py is not None else self.start)
        dts = {_int_dtype(left), _int_dtype(right)}
        if None in dts:
            return None
        if len(dts) == 1 and not strict:  # `x <= MAX` / `MIN <= x` in the compare's own dtype: always true
            (dt,) = dts
            assert dt is not None
            lo_b, hi_b = _bounds(dt)
            for v, extreme in ((right, hi_b), (left, lo_b)):
                c = self.defs.get(v.id)
                if c is not None and c.kind == "const" and c.attrs.get("value") == extreme:
                    return self.stop
        la, ra = self.aff(left), self.aff(right)
        tile_dts = {v.type.dtype for v in (left, right) if isinstance(v.type, TileType)}
        if la is None or ra is None or len(tile_dts) != 1:
            return None
        (cmp_dt,) = tile_dts  # a scalar operand is compared in the tile's dtype: it must fit it too
        checks = la.checks + ra.checks
        if cmp_dt.bits < 64:
            checks += [(a, cmp_dt) for v, a in ((left, la), (right, ra)) if _int_dtype(v) != cmp_dt]
        d = la.coef - ra.coef
        # all-true iff d * j <= x, with x = (R.lo - L.hi) + inv_R - inv_L (- 1 when strict)
        x = self.affine(ra.lo - la.hi - (1 if strict else 0), 0, None, self.add_inv(ra.inv, la.inv, "-"))
        if d > 0:
            raw = self.binop("+", self.binop("//", x, self.const(d)), self.const(1))
        elif d == 0:
            raw = self.binop("+", self.start, self.binop("*", self.binop("-", self.stop, self.start), self.ge0(x)))
        else:
            return None  # all-true on a suffix: not split (the masked iterations would come first)
        point = self.emit("scalar", [self.emit("scalar", [raw, self.start], op="max"), self.stop], op="min")
        return self.guard(point, checks)

    def guard(self, point: Value, checks: list[tuple[_Aff, DType]]) -> Value:
        """`point`, or `start` unless every checked value fits its dtype on `[start, point)`."""
        assert self.start is not None
        if not checks:
            return point
        last = self.binop("-", point, self.const(1))
        ok: Value | None = None
        for a, dt in checks:
            lo_b, hi_b = _bounds(dt)
            for j in (self.start, last):
                for bound, value in ((lo_b, a.lo), (hi_b, a.hi)):
                    v = self.affine(value, a.coef, j, a.inv)
                    diff = (
                        self.binop("-", v, self.const(bound))
                        if bound == lo_b
                        else self.binop("-", self.const(bound), v)
                    )
                    fits = self.ge0(diff)
                    ok = fits if ok is None else self.emit("scalar", [ok, fits], op="min")
        assert ok is not None
        return self.binop("+", self.start, self.binop("*", self.binop("-", point, self.start), ok))

    # -- the pass ------------------------------------------------------------------------------------------
    def block(self, ops: list[Op]) -> list[Op]:
        out: list[Op] = []
        for op in ops:
            if isinstance(op, ForOp):
                op.body = self.block(op.body)
                out += self.split(op)
            out.append(op)
        return out

    def split(self, loop: ForOp) -> list[Op]:
        """Mark `loop` when a mask in its body has a provable all-true prefix; return the ops computing it."""
        start, stop, step = loop.args
        step_op = self.defs.get(step.id)
        if step_op is None or step_op.kind != "const" or step_op.attrs.get("value") != 1 or loop.var is None:
            return []
        for v in (start, stop):
            if v.type != INDEX:
                return []
        self.loop, self.pre, self.start, self.stop, self.hoisted = loop, [], start, stop, {}
        self.inside = {o.result.id for o in _all_ops(loop.body) if o.result is not None}
        self.inside |= {c.phi.id for c in loop.carried}
        points: list[Value] = []
        masks: list[Op] = []
        updates = {c.update.id for c in loop.carried if c.update is not None}
        for op in loop.body:
            if op.kind != "where" or op.result is None or op.result.id in updates:
                continue
            cond, x = op.args[0], op.args[1]
            if not isinstance(cond.type, TileType) or x.type != op.result.type:
                continue
            point = self.prefix(cond)
            if point is not None:
                points.append(point)
                masks.append(op)
        self.loop = None
        if not points:
            return []
        point = points[0]
        for p in points[1:]:
            point = self.emit("scalar", [point, p], op="min")
        free = [Op("copy", [op.args[1]], op.result, {}, op.line) if op in masks else op for op in loop.body]
        loop.attrs["split"] = LoopSplit(point, _drop_dead(free, loop), len(masks))
        self.counts.loops += 1
        self.counts.masks += len(masks)
        return self.pre


def _drop_dead(ops: list[Op], loop: ForOp) -> list[Op]:
    """`ops` without the pure ops (`_DROPPABLE`) whose results nothing in `ops` or the loop's updates reads."""
    keep = list(ops)
    while True:
        live = {c.update.id for c in loop.carried if c.update is not None}
        for op in _all_ops(keep):
            live |= {a.id for a in op.args}
            if isinstance(op, ForOp):
                live |= {v.id for c in op.carried for v in (c.init, c.update) if v is not None}
        dead = [
            op for op in keep
            if op.kind in _DROPPABLE and not isinstance(op, ForOp) and op.result is not None
            and op.result.id not in live
        ]  # fmt: skip
        if not dead:
            return keep
        gone = {id(op) for op in dead}
        keep = [op for op in keep if id(op) not in gone]


def split_loops(kir: TileKernelIR) -> SplitCounts:
    """Mark the loops to split (see the module docstring), in place; returns how many and how many masks."""
    if not ENABLED:
        return SplitCounts()
    splitter = _Splitter(kir)
    kir.body = splitter.block(kir.body)
    return splitter.counts
