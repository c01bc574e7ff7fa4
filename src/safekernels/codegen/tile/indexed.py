"""Indexed memory ops on the GPU: `tile.gather`, `tile.scatter` and `tile.atomic_add/max/min`.

Each works lane by lane in the `Blocked` layout of the broadcast index shape: the per-axis index tiles (and
the mask, and the values) are materialized in that layout, converted to i64, and every slot computes

    live   = every index in [0, dim) (one unsigned compare catches negatives) and mask and the slot is active
    offset = row-major offset of the indices in the tensor

- gather: a predicated load (`offset` is replaced by 0 on dead lanes, which then read `other`);
- scatter: a store under `live` and "inside the block's own tile" (`bid * tile <= index < bid * tile + tile`
  on every axis), so a block writes only what its Partition owns;
- atomics: `atomicrmw add/fadd/max/min/umax/umin/fmax/fmin` (monotonic, GPU scope) under `live`; values
  already held in registers at the full shape keep their layout (the lanes follow it, not `Blocked`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import Op, Value
from safekernels.codegen.tile.layout import Blocked, Layout, c64
from safekernels.codegen.tile.values import RegTile, Scalar
from safekernels.dtypes import DType, dtype_of
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I64DT = dtype_of("i64")
BOOLDT = dtype_of("bool")


def _lanes(L: TileLowering, v: Value, layout: Layout, shape: tuple[int, ...], dt: DType) -> list[ir.Value]:
    """Operand `v` broadcast to `shape`, one value per slot of `layout`, converted to `dt`."""
    r = L.val(v)
    if isinstance(r, Scalar):
        return [L.scalar_in(r, dt if dt != BOOLDT else None)] * layout.slots
    assert isinstance(v.type, TileType)
    src = r if isinstance(r, RegTile) and r.layout == layout and r.type.shape == shape else L.addressable(r)
    m = L.materialize(src, layout, TileType(shape, v.type.dtype))
    if v.type.dtype == dt:
        return list(m.vals)
    return [so.convert(L.b, x, v.type.dtype, dt) for x in m.vals]


def _slot_active(L: TileLowering, layout: Layout) -> list[ir.Value | None]:
    out: list[ir.Value | None] = []
    for g in range(layout.groups):
        a = layout.active(L.b, L.tid, g)
        out.extend([a] * layout.width)
    return out


def _addressing(
    L: TileLowering, op: Op, shape: tuple[int, ...], layout: Layout, n_index: int, mask: Value | None
) -> tuple[list[list[ir.Value]], list[ir.Value], list[ir.Value]]:
    """Per slot: the i64 indices, the live predicate and the row-major offset."""
    b = L.b
    regs = L.params[op.attrs["param"]]
    idx = [_lanes(L, v, layout, shape, I64DT) for v in op.args[:n_index]]
    masks = _lanes(L, mask, layout, shape, BOOLDT) if mask is not None else None
    strides = L.row_strides(regs.dims)
    active = _slot_active(L, layout)
    per_slot: list[list[ir.Value]] = []
    lives: list[ir.Value] = []
    offsets: list[ir.Value] = []
    for s in range(layout.slots):
        coords = [lane[s] for lane in idx]
        live: ir.Value = ir.Constant(so.I1, 1)
        for c, n in zip(coords, regs.dims, strict=True):
            live = b.and_(live, b.icmp_unsigned("<", c, n))
        if masks is not None:
            live = b.and_(live, masks[s])
        if active[s] is not None:
            live = b.and_(live, active[s])
        per_slot.append(coords)
        lives.append(live)
        offsets.append(L.offset(coords, strides))
    return per_slot, lives, offsets


def lower_gather(L: TileLowering, op: Op) -> RegTile:
    b = L.b
    assert op.result is not None and isinstance(op.result.type, TileType)
    rt = op.result.type
    n_index = op.attrs["n_index"]
    mask = op.args[n_index] if len(op.args) > n_index else None
    layout = L.blocked(rt.shape if rt.shape else (1,))
    _coords, lives, offsets = _addressing(L, op, rt.shape, layout, n_index, mask)
    p = L.kir.params[op.attrs["param"]]
    elem = so.storage_ty(p.dtype)
    typed = b.bitcast(L.params[op.attrs["param"]].ptr, ir.PointerType(elem, addrspace=1))
    other = so.const_of(op.attrs["other"], p.dtype)
    itemsize = 1 if p.dtype.name == "bool" else p.dtype.itemsize
    vals: list[ir.Value] = []
    for live, off in zip(lives, offsets, strict=True):
        v = b.load(b.gep(typed, [b.select(live, off, c64(0))]), align=itemsize)
        if p.dtype.name == "bool":
            v = b.trunc(v, so.I1)
        vals.append(b.select(live, v, other))
    if not rt.shape:
        tmp = RegTile(TileType((1,), rt.dtype), layout, vals)
        sm = L.to_smem(tmp)
        from safekernels.codegen.tile.values import SmemTile

        return SmemTile(rt, sm.base, (), sm.elem)  # type: ignore[return-value]
    return RegTile(rt, layout, vals)


def _stored(L: TileLowering, op: Op) -> tuple[tuple[int, ...], Blocked, int, Value, Value | None]:
    n_index = op.attrs["n_index"]
    shape = tuple(op.attrs["shape"])
    value = op.args[n_index]
    mask = op.args[n_index + 1] if len(op.args) > n_index + 1 else None
    return shape, L.blocked(shape if shape else (1,)), n_index, value, mask


def lower_scatter(L: TileLowering, op: Op) -> None:
    b = L.b
    shape, layout, n_index, value, mask = _stored(L, op)
    p = L.kir.params[op.attrs["param"]]
    assert p.tile_shape is not None
    coords, lives, offsets = _addressing(L, op, shape, layout, n_index, mask)
    vals = _lanes(L, value, layout, shape, p.dtype)
    elem = so.storage_ty(p.dtype)
    typed = b.bitcast(L.params[op.attrs["param"]].ptr, ir.PointerType(elem, addrspace=1))
    lo = [b.mul(bid, c64(t)) for bid, t in zip(L.bids_for(len(p.tile_shape)), p.tile_shape, strict=True)]
    for cs, live, off, v in zip(coords, lives, offsets, vals, strict=True):
        own = live
        for c, start, t in zip(cs, lo, p.tile_shape, strict=True):
            inside = b.icmp_unsigned("<", b.sub(c, start), c64(t))  # start <= c < start + t
            own = b.and_(own, inside)
        with b.if_then(own):
            b.store(L._to_storage(v, p.dtype), b.gep(typed, [off]))


def lower_atomic(L: TileLowering, op: Op) -> None:
    b = L.b
    shape, blocked, n_index, value, mask = _stored(L, op)
    # values already in registers (a matmul's accumulator: FlashAttention-2's dQ) stay in their own layout, the
    # indices computed per slot there (an `iota` costs no memory), instead of a round trip through shared memory
    r = L.val(value)
    layout: Layout = r.layout if isinstance(r, RegTile) and r.type.shape == shape and shape else blocked
    p = L.kir.params[op.attrs["param"]]
    _coords, lives, offsets = _addressing(L, op, shape, layout, n_index, mask)
    vals = _lanes(L, value, layout, shape, p.dtype)
    elem = so.storage_ty(p.dtype)
    typed = b.bitcast(L.params[op.attrs["param"]].ptr, ir.PointerType(elem, addrspace=1))
    kind = op.attrs["op"]
    if p.dtype.is_float:
        rmw = {"add": "fadd", "max": "fmax", "min": "fmin"}[kind]
    elif p.dtype.kind == "u":
        rmw = {"add": "add", "max": "umax", "min": "umin"}[kind]
    else:
        rmw = kind
    for live, off, v in zip(lives, offsets, vals, strict=True):
        with b.if_then(live):
            b.atomic_rmw(rmw, b.gep(typed, [off]), v, "monotonic")
