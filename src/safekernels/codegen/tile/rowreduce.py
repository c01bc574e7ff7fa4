"""Row reductions of a matmul accumulator kept in registers: the online softmax of flash attention.

A tile in the `Mma(shape, warps, 1)` layout (each warp owns whole rows: every synchronous or pipelined
warpgroup-MMA result, `codegen.tile.wgmma_sync`) holds each row in the four lanes of one quad.  `tile.max` /
`tile.sum` / `tile.min` over its last axis with `keepdims=True` then needs no shared memory: each thread
combines its own slots of a row, two `shfl.xor` (1, 2) finish the quad, and the result is an `MmaRows` tile
(the row's value in the lanes that own the row).  Elementwise ops broadcast an `MmaRows` tile back into the
`Mma` tile register by register (`broadcast`), and a loop-carried `(rows, 1)` tile beside such a matmul is
carried in `MmaRows` (`carried_layout`), so the running max and denominator of the online softmax stay in
registers: no barrier between the two matmuls of a key block except the operand pipeline's one.

The reduction order differs from the generic path (per-thread slots, then the quad's butterfly): a sum may
round differently, as any two GPU reduction trees do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.lowering.nvvm import shuffle
from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import ForOp, Op
from safekernels.codegen.tile.layout import Layout, Mma, MmaRows
from safekernels.codegen.tile.values import RegTile
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

ENABLED = True


def _rows_of(lay: Layout) -> MmaRows | None:
    if isinstance(lay, Mma) and lay.warps_n == 1 and lay.wm % 16 == 0:
        return MmaRows(lay.shape[0], lay.warps_m)
    return None


def lower(L: TileLowering, op: Op) -> RegTile | None:
    """`op` (sum/max/min) as quad shuffles when it reduces the last axis of an f32 `Mma` register tile with
    `keepdims=True`; None: the generic path."""
    if not ENABLED or op.kind not in ("sum", "max", "min") or not op.attrs.get("keepdims"):
        return None
    src = L.val(op.args[0])
    st, rt = op.args[0].type, op.result.type if op.result is not None else None
    if not isinstance(src, RegTile) or not isinstance(st, TileType) or not isinstance(rt, TileType):
        return None
    if len(st.shape) != 2 or op.attrs.get("axis") not in (1, -1) or st.dtype.name != "f32" or rt.dtype != st.dtype:
        return None
    rows = _rows_of(src.layout)
    if rows is None:
        return None
    lay = src.layout
    assert isinstance(lay, Mma)
    b = L.b
    out: list[ir.Value] = []
    for g in range(rows.groups):
        mi, h = divmod(g, 2)
        v: ir.Value | None = None
        for ni in range(lay.ni):
            base = ((mi * lay.ni + ni) * 2 + h) * 2  # the Mma group (mi, ni, h), two slots
            for j in range(2):
                x = src.vals[base + j]
                v = x if v is None else so.combine(b, op.kind, v, x, st.dtype)
        assert v is not None
        for off in (1, 2):
            v = so.combine(b, op.kind, v, shuffle(b, "shfl_xor", v, ir.Constant(so.I32, off)), st.dtype)
        out.append(v)
    return RegTile(rt, rows, out)


def broadcast(t: RegTile, layout: Layout, shape: tuple[int, ...]) -> list[ir.Value] | None:
    """The slots of `layout` (an `Mma` tile of `shape`) read from the `MmaRows` tile `t`; None: not that case."""
    if not isinstance(t.layout, MmaRows) or not isinstance(layout, Mma) or _rows_of(layout) != t.layout:
        return None
    if len(shape) != 2 or shape[0] != t.layout.rows:
        return None
    out: list[ir.Value] = []
    for g in range(layout.groups):
        mi, rest = divmod(g, layout.ni * 2)
        h = rest % 2
        out.extend([t.vals[mi * 2 + h]] * layout.width)
    return out


def carried_layout(L: TileLowering, loop: ForOp, t: TileType) -> MmaRows | None:
    """`MmaRows` for a loop-carried `(rows, 1)` tile beside a warpgroup matmul with `rows` accumulator rows."""
    if not ENABLED or len(t.shape) != 2 or t.shape[1] != 1 or t.dtype.name != "f32":
        return None
    for o in loop.body:
        if o.kind == "matmul" and id(o) in L.wgmma_sync_ops and o.result is not None:
            rt = o.result.type
            if isinstance(rt, TileType) and rt.shape[0] == t.shape[0]:
                rows = _rows_of(Mma((rt.shape[0], rt.shape[1]), L.T // 32, 1))
                if rows is not None:
                    return rows
    return None
