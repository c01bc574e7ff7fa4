"""Reductions (`tile.sum/max/min`) on the GPU.

Last-axis and whole-tile reductions (the bandwidth-bound cases: softmax, layernorm, row sums) run in three
steps over the `Blocked` layout, where each thread's vector lies inside one row:

1. in registers: each thread combines its vector slots (and, when a row spans more than `T * vec` elements,
   all of its groups in that row);
2. warp shuffles (`shfl.sync.bfly`) combine the threads that share a row inside a warp;
3. one partial per (row, warp) goes to shared memory, then one barrier.  Outside `range` loops the result is
   then a formula (`FnTile`): a consumer reads the W partials of its row (broadcast shared-memory reads, the
   same address for every lane) and combines them in registers, so a last-axis reduction costs ONE barrier.
   Shared memory is bump-allocated and never reused outside loops, so the fresh partials region needs no
   barrier before it is written, and nothing overwrites it while consumers read it.  Inside a loop the region
   is rewritten by the next iteration, so there the old sequence stays: a barrier before the writes, and after
   the partials' barrier thread `r` combines row `r`'s partials into a result array that a third barrier
   publishes (a `keepdims` result broadcasts by reading the same address).

Other axes go through shared memory: the tile is written there once and each result element loops over the
reduced axis.  f16/bf16 accumulate in f32 and round once; `sum` of bools counts in i64.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.lowering.nvvm import shuffle
from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import Op
from safekernels.codegen.tile.layout import Blocked, c64
from safekernels.codegen.tile.values import FnTile, RegTile, SmemTile, Tile
from safekernels.dtypes import DType, dtype_of
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering


def _acc_type(src: DType, out: DType) -> tuple[ir.Type, DType]:
    if src.name in ("f16", "bf16", "f8e4m3", "f8e5m2"):
        return so.F32, dtype_of("f32")
    if src.name == "bool":
        return so.I64, dtype_of("i64")
    return so.llty(src), src


def lower_reduce(L: TileLowering, op: Op) -> Tile:
    b = L.b
    rop = op.kind
    assert op.result is not None and isinstance(op.result.type, TileType)
    rt = op.result.type
    src_t = op.args[0].type
    assert isinstance(src_t, TileType)
    shape = src_t.shape
    axis = op.attrs["axis"]
    rank = len(shape)
    n = 1
    for s in shape:
        n *= s
    if axis is not None:
        axis %= rank
    row_len = n if axis is None else shape[-1] if axis == rank - 1 else 0
    layout = L.blocked(shape)
    if axis is None and rank > 1:
        layout = Blocked((n,), layout.vec, L.T)
    acc_ty, acc_dt = _acc_type(src_t.dtype, rt.dtype)
    src = L.val(op.args[0])
    flat_type = TileType(layout.shape, src_t.dtype)
    if row_len == 0 or row_len % layout.vec:
        return _reduce_via_smem(L, op, src, acc_ty, acc_dt)
    t = L.materialize(src, L.blocked(shape), src_t)
    if layout.shape != shape:
        t = RegTile(flat_type, layout, t.vals)
    T, vec = L.T, layout.vec
    rows = n // row_len
    P = row_len // vec
    ident = so.identity(rop, acc_dt, acc_ty)

    def acc_of(v: ir.Value) -> ir.Value:
        return so.convert(b, v, src_t.dtype, acc_dt) if src_t.dtype != acc_dt else v

    group_vals: list[ir.Value] = []
    for g in range(layout.groups):
        active = layout.active(b, L.tid, g)
        v = acc_of(t.vals[g * vec])
        for j in range(1, vec):
            v = so.combine(b, rop, v, acc_of(t.vals[g * vec + j]), acc_dt)
        group_vals.append(v if active is None else b.select(active, v, ident))
    warp = b.udiv(L.tid, c64(32))
    lane = b.urem(L.tid, c64(32))
    in_loop = bool(L.loop_state)
    if P >= T and row_len % (T * vec) == 0:
        per_row: dict[int, ir.Value] = {}
        for g, v in enumerate(group_vals):
            r = (g * T * vec) // row_len
            per_row[r] = v if r not in per_row else so.combine(b, rop, per_row[r], v, acc_dt)
        W = T // 32
        part = L.alloc(
            rows
            * W
            * (acc_ty.width // 8 if isinstance(acc_ty, ir.IntType) else (8 if acc_ty == so.F64 else 4))
        )
        if in_loop:  # the previous iteration may still read this region; a fresh one needs no barrier
            L.barrier()
        for r, v in per_row.items():
            for off in (16, 8, 4, 2, 1):
                v = so.combine(b, rop, v, shuffle(b, "shfl_xor", v, ir.Constant(so.I32, off)), acc_dt)
            with b.if_then(b.icmp_unsigned("==", lane, c64(0))):
                b.store(v, L.sptr(part, b.add(c64(r * W), warp), acc_ty))
        L.barrier()
    elif P < T and T % P == 0:
        seg = min(P, 32)
        W = max(1, P // 32)
        part = L.alloc(
            rows
            * W
            * (acc_ty.width // 8 if isinstance(acc_ty, ir.IntType) else (8 if acc_ty == so.F64 else 4))
        )
        if in_loop:
            L.barrier()
        for g, v in enumerate(group_vals):
            off = seg // 2
            while off >= 1:
                v = so.combine(b, rop, v, shuffle(b, "shfl_xor", v, ir.Constant(so.I32, off)), acc_dt)
                off //= 2
            row = b.add(c64(g * (T // P)), b.udiv(L.tid, c64(P)))
            writer = b.icmp_unsigned("==", b.urem(L.tid, c64(seg)), c64(0))
            writer = b.and_(writer, b.icmp_unsigned("<", row, c64(rows)))
            with b.if_then(writer):
                idx = b.add(b.mul(row, c64(W)), b.udiv(b.urem(L.tid, c64(P)), c64(32)))
                b.store(v, L.sptr(part, idx, acc_ty))
        L.barrier()
    else:
        return _reduce_via_smem(L, op, src, acc_ty, acc_dt)
    if not in_loop and rt.shape:
        return _partials_formula(rt, rop, part, W, acc_ty, acc_dt, L)
    # final: one thread per row combines the W partials and writes the result dtype
    out_elem = so.storage_ty(rt.dtype)
    if W == 1 and acc_dt == rt.dtype and rt.dtype.name != "bool":
        final = part
    else:
        out_size = max(1, out_elem.width // 8) if isinstance(out_elem, ir.IntType) else rt.dtype.itemsize
        final = L.alloc(rows * out_size)
        for r0 in range(0, rows, T):
            row = b.add(c64(r0), L.tid)
            with b.if_then(b.icmp_unsigned("<", row, c64(rows))):
                v = b.load(L.sptr(part, b.mul(row, c64(W)), acc_ty))
                for w in range(1, W):
                    v = so.combine(
                        b, rop, v, b.load(L.sptr(part, b.add(b.mul(row, c64(W)), c64(w)), acc_ty)), acc_dt
                    )
                v = so.convert(b, v, acc_dt, rt.dtype) if acc_dt != rt.dtype else v
                b.store(v, L.sptr(final, row, out_elem))
        L.barrier()
    return SmemTile(rt, final, _result_strides(rt.shape, axis, rank, op.attrs["keepdims"], shape), out_elem)


def _partials_formula(
    rt: TileType, rop: str, part: ir.Value, W: int, acc_ty: ir.Type, acc_dt: DType, L: TileLowering
) -> FnTile:
    """The reduced tile as a formula over the published partials: element `coords` is row `flat(coords)`, the
    combination of `part[row * W .. row * W + W - 1]` (read by whichever thread needs it, in registers)."""
    shape = rt.shape

    def fn(b: ir.IRBuilder, coords: list[ir.Value]) -> ir.Value:
        row: ir.Value = c64(0)
        for c, extent in zip(coords, shape, strict=True):
            row = b.add(b.mul(row, c64(extent)), c) if extent != 1 else row
        base = b.mul(row, c64(W)) if W != 1 else row
        v = b.load(L.sptr(part, base, acc_ty))
        for w in range(1, W):
            v = so.combine(b, rop, v, b.load(L.sptr(part, b.add(base, c64(w)), acc_ty)), acc_dt)
        return so.convert(b, v, acc_dt, rt.dtype) if acc_dt != rt.dtype else v

    return FnTile(rt, fn)


def _result_strides(
    rshape: tuple[int, ...], axis: int | None, rank: int, keep: bool, src_shape: tuple[int, ...]
) -> tuple[int, ...]:
    if axis is None:
        return tuple(0 for _ in rshape)
    kept = list(src_shape[:-1])
    strides = [1] * len(kept)
    for ax in range(len(kept) - 2, -1, -1):
        strides[ax] = strides[ax + 1] * kept[ax + 1]
    return (*strides, 0) if keep else tuple(strides)


def _reduce_via_smem(L: TileLowering, op: Op, src: object, acc_ty: ir.Type, acc_dt: DType) -> Tile:
    """Any axis: the tile in shared memory, each result element loops over the reduced axis."""
    b = L.b
    assert op.result is not None and isinstance(op.result.type, TileType)
    rt = op.result.type
    src_t = op.args[0].type
    assert isinstance(src_t, TileType)
    s = L.addressable(src)  # type: ignore[arg-type]
    if not isinstance(s, SmemTile):
        s = L.to_smem(L.materialize(s, L.blocked(src_t.shape), src_t))
    axis = op.attrs["axis"]
    keep = op.attrs["keepdims"]
    rank = len(src_t.shape)
    axes = list(range(rank)) if axis is None else [axis % rank]
    out_layout = L.blocked(rt.shape if rt.shape else (1,))
    vals: list[ir.Value] = []
    ident = so.identity(op.kind, acc_dt, acc_ty)
    for g in range(out_layout.groups):
        coords = out_layout.coords(b, L.tid, g)
        for j in range(out_layout.width):
            oc = [*coords[:-1], b.add(coords[-1], c64(j))] if j else coords
            full: list[ir.Value | None] = []
            k = 0
            for ax in range(rank):
                if ax in axes:
                    full.append(None)
                    if keep:
                        k += 1
                else:
                    full.append(oc[k] if rt.shape else c64(0))
                    k += 1
            acc: ir.Value = ident
            for flat in range(_prod([src_t.shape[a] for a in axes])):
                idx = list(full)
                rem = flat
                for a in reversed(axes):
                    idx[a] = c64(rem % src_t.shape[a])
                    rem //= src_t.shape[a]
                v = L.read(s, [x for x in idx if x is not None], src_t.shape, src_t.dtype)
                acc = so.combine(
                    b,
                    op.kind,
                    acc,
                    so.convert(b, v, src_t.dtype, acc_dt) if src_t.dtype != acc_dt else v,
                    acc_dt,
                )
            vals.append(so.convert(b, acc, acc_dt, rt.dtype) if acc_dt != rt.dtype else acc)
    if not rt.shape:
        tmp = RegTile(TileType((1,), rt.dtype), out_layout, vals)
        sm = L.to_smem(tmp)
        return SmemTile(rt, sm.base, (), sm.elem)
    return RegTile(rt, out_layout, vals)


def _prod(xs: list[int]) -> int:
    out = 1
    for x in xs:
        out *= x
    return out
