"""Scans (`tile.scan`, `tile.cumsum`) and arg-reductions (`tile.argmax`, `tile.argmin`) on the GPU.

Both read the source tile at arbitrary coordinates, so it first becomes addressable (shared memory, or a
formula); then every result element, in the result's `Blocked` layout, runs a counted LLVM loop over the
axis:

    scan:       out[.., i, ..] = fold(op, src[.., 0..=i, ..])     accumulated in f32 for f16/bf16, i64 for bool
    argreduce:  out[..]        = first k with src[.., k, ..] extreme (NaN counts as the extreme, as numpy's)

That is O(axis length) work per element with no extra barriers: cheap next to the memory traffic of the
tile sizes kernels use for these ops (histograms, top-k, routing), and exactly the op table's CPU semantics.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import Op
from safekernels.codegen.tile.layout import c64
from safekernels.codegen.tile.reduce import _acc_type
from safekernels.codegen.tile.values import RegTile, Scalar, SmemTile, Tile
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

_COMBINE = {"add": "sum", "max": "max", "min": "min"}


def counted_loop(
    L: TileLowering,
    start: ir.Value,
    stop: ir.Value,
    inits: list[ir.Value],
    body: Callable[[ir.Value, list[ir.Value]], list[ir.Value]],
) -> list[ir.Value]:
    """`for k in range(start, stop)` carrying `inits`; returns the carried values after the loop."""
    b = L.b
    pre = b.block
    head = b.append_basic_block("scan.head")
    loop = b.append_basic_block("scan.body")
    done = b.append_basic_block("scan.exit")
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(c64(0).type, "k")
    k.add_incoming(start, pre)
    phis = []
    for v in inits:
        phi = b.phi(v.type)
        phi.add_incoming(v, pre)
        phis.append(phi)
    b.cbranch(b.icmp_signed("<", k, stop), loop, done)
    b.position_at_end(loop)
    updated = body(k, list(phis))
    latch = b.block
    for phi, v in zip(phis, updated, strict=True):
        phi.add_incoming(v, latch)
    k.add_incoming(b.add(k, c64(1)), latch)
    b.branch(head)
    b.position_at_end(done)
    return list(phis)


def _source(L: TileLowering, op: Op) -> tuple[Tile, TileType]:
    """The operand in a form readable at any coordinates: a register tile goes to shared memory."""
    src_t = op.args[0].type
    assert isinstance(src_t, TileType)
    src = L.val(op.args[0])
    if isinstance(src, RegTile):
        return L.to_smem(src), src_t
    assert not isinstance(src, Scalar)
    return src, src_t


def _slots(L: TileLowering, shape: tuple[int, ...]) -> tuple[object, list[list[ir.Value]]]:
    """The result layout and, per slot, the element coordinates this thread computes."""
    b = L.b
    layout = L.blocked(shape if shape else (1,))
    coords: list[list[ir.Value]] = []
    for g in range(layout.groups):
        base = layout.coords(b, L.tid, g)
        for j in range(layout.width):
            coords.append([*base[:-1], b.add(base[-1], c64(j))] if j else base)
    return layout, coords


def lower_scan(L: TileLowering, op: Op) -> Tile:
    b = L.b
    assert op.result is not None and isinstance(op.result.type, TileType)
    rt = op.result.type
    src, src_t = _source(L, op)
    axis = op.attrs["axis"] % len(src_t.shape)
    combine = _COMBINE[op.attrs["op"]]
    acc_ty, acc_dt = _acc_type(src_t.dtype, rt.dtype)
    layout, coords = _slots(L, rt.shape)
    vals: list[ir.Value] = []
    for oc in coords:

        def step(k: ir.Value, carried: list[ir.Value], oc: list[ir.Value] = oc) -> list[ir.Value]:
            at = [k if ax == axis else c for ax, c in enumerate(oc)]
            v = L.read(src, at, src_t.shape, src_t.dtype)
            v = so.convert(b, v, src_t.dtype, acc_dt) if src_t.dtype != acc_dt else v
            return [so.combine(b, combine, carried[0], v, acc_dt)]

        ident = so.identity(combine, acc_dt, acc_ty)
        (acc,) = counted_loop(L, c64(0), b.add(oc[axis], c64(1)), [ident], step)
        vals.append(so.convert(b, acc, acc_dt, rt.dtype) if acc_dt != rt.dtype else acc)
    return RegTile(rt, layout, vals)  # type: ignore[arg-type]


def _better(b: ir.IRBuilder, find_max: bool, v: ir.Value, best: ir.Value, signed: bool) -> ir.Value:
    if isinstance(v.type, ir.FloatType | ir.DoubleType):
        strict = b.fcmp_ordered(">" if find_max else "<", v, best)
        v_nan = b.fcmp_unordered("uno", v, v)
        best_nan = b.fcmp_unordered("uno", best, best)
        return b.or_(strict, b.and_(v_nan, b.not_(best_nan)))
    sym = ">" if find_max else "<"
    return b.icmp_signed(sym, v, best) if signed else b.icmp_unsigned(sym, v, best)


def _along(k: ir.Value, *, outer: list[ir.Value], axis: int) -> list[ir.Value]:
    return [k if i == axis else c for i, c in enumerate(outer)]


def lower_argreduce(L: TileLowering, op: Op) -> Tile:
    from safekernels.codegen.tile.lower import _unflat

    b = L.b
    assert op.result is not None and isinstance(op.result.type, TileType)
    rt = op.result.type
    src, src_t = _source(L, op)
    shape = src_t.shape
    axis = op.attrs["axis"]
    keep = op.attrs["keepdims"]
    find_max = op.kind == "argmax"
    signed = src_t.dtype.kind == "i"
    layout, coords = _slots(L, rt.shape)
    n = 1
    for s in shape:
        n *= s
    vals: list[ir.Value] = []
    for oc in coords:
        at: Callable[[ir.Value], list[ir.Value]]
        if axis is None:
            at = functools.partial(_unflat, b, shape=shape)
            extent = n
        else:
            ax = axis % len(shape)
            outer = list(oc) if keep else [*oc[:ax], c64(0), *oc[ax:]]
            if not rt.shape:
                outer = [c64(0)] * len(shape)
            at = functools.partial(_along, outer=outer, axis=ax)
            extent = shape[ax]

        def widen(v: ir.Value) -> ir.Value:
            return so.widen(b, v, src_t.dtype)

        first = widen(L.read(src, at(c64(0)), shape, src_t.dtype))

        def step(k: ir.Value, carried: list[ir.Value], at: Callable[..., list[ir.Value]] = at) -> list[ir.Value]:
            best, idx = carried
            v = widen(L.read(src, at(k), shape, src_t.dtype))
            take = _better(b, find_max, v, best, signed)
            return [b.select(take, v, best), b.select(take, k, idx)]

        _best, idx = counted_loop(L, c64(1), c64(extent), [first, c64(0)], step)
        vals.append(b.trunc(idx, so.I32))
    if not rt.shape:
        tmp = RegTile(TileType((1,), rt.dtype), layout, vals)  # type: ignore[arg-type]
        sm = L.to_smem(tmp)
        return SmemTile(rt, sm.base, (), sm.elem)
    return RegTile(rt, layout, vals)  # type: ignore[arg-type]
