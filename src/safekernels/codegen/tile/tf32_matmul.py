"""`tile.matmul(a, b, acc, input_precision="tf32")` on f32 operands: TF32 tensor cores (`mma.sync.m16n8k8`).

TF32 is an opt-in, written in the kernel's source (so it is part of the disk cache key): without it an f32
matmul runs exactly on the FMA units (`codegen.tile.fma_matmul`).  Every operand element goes through
`cvt.rna.tf32.f32` (10 stored mantissa bits, to nearest, ties away from zero) before the tensor cores see it,
the rounding the CPU executor applies too (`safekernels.tile.ops.round_to_tf32`); handing the tensor cores raw
f32 bits would let them drop the 13 low bits instead, which no document pins.  A product of two TF32 values is
exact in f32, so what is left between the executors is the order and rounding of the f32 sum.

Both operands go to shared memory (`addressable`, row-major f32).  Each warp owns a `WM x WN` piece of the
accumulator in the `Mma` layout (the C fragment of m16n8k8 is the one of m16n8k16) and walks K in steps of 8:

    lane l: g = l / 4, t = l % 4
    A fragment (16x8, row):  a0 (g, t)  a1 (g + 8, t)  a2 (g, t + 4)  a3 (g + 8, t + 4)
    B fragment (8x8, col):   b0 (t, g)  b1 (t + 4, g)                          (k, n)
    C fragment (16x8):       c0, c1 (g, 2t + {0, 1})    c2, c3 (g + 8, 2t + {0, 1})

The tensor cores add into `acc` itself.  Shapes they cannot tile (`fits`: M and N split over the warps in 16x16
pieces, K a multiple of 8) take the FMA path with the same rounding of the inputs, so an opted-in kernel's
numbers do not depend on its tile shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import Op
from safekernels.codegen.tile.layout import Mma, c64, mma_for
from safekernels.codegen.tile.values import RegTile
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I32, I64 = so.I32, so.I64
K_STEP = 8  # m16n8k8: one instruction covers 8 of K


def wants_tf32(op: Op) -> bool:
    """An f32 matmul that opted into TF32 (`input_precision="tf32"`)."""
    a_t = op.args[0].type
    return (
        op.kind == "matmul"
        and op.attrs.get("input_precision") == "tf32"
        and isinstance(a_t, TileType)
        and a_t.dtype.name == "f32"
    )


def fits(a_shape: tuple[int, ...], b_shape: tuple[int, ...], warps: int) -> bool:
    """Whether an (M, K) @ (K, N) matmul tiles onto m16n8k8 over `warps` warps."""
    (bm, bk), (_, bn) = a_shape, b_shape
    return bk % K_STEP == 0 and mma_for((bm, bn), warps) is not None


def takes(L: TileLowering, op: Op) -> bool:
    """`op` runs on TF32 tensor cores in this lowering."""
    if not wants_tf32(op):
        return False
    a_t, b_t = op.args[0].type, op.args[1].type
    assert isinstance(a_t, TileType) and isinstance(b_t, TileType)
    return fits(a_t.shape, b_t.shape, L.T // 32)


def layout(L: TileLowering, op: Op) -> Mma:
    """The accumulator layout of a matmul that `takes` accepted."""
    assert op.result is not None and isinstance(op.result.type, TileType)
    m, n = op.result.type.shape
    lay = mma_for((m, n), L.T // 32)
    assert lay is not None
    return lay


def to_tf32(b: ir.IRBuilder, v: ir.Value) -> ir.Value:
    """`cvt.rna.tf32.f32`: the TF32 value of f32 `v`, as its 32 bits (the 13 low ones zero)."""
    return b.call(so.declare(b.module, "llvm.nvvm.f2tf32.rna", I32, [so.F32]), [v])


def lower(L: TileLowering, op: Op) -> RegTile:
    a_v, b_v, acc_v = op.args
    assert op.result is not None
    ty, a_t, b_t = op.result.type, a_v.type, b_v.type
    assert isinstance(ty, TileType) and isinstance(a_t, TileType) and isinstance(b_t, TileType)
    lay = layout(L, op)
    acc = L.materialize(L.val(acc_v), lay, ty)
    a = L.addressable(L.val(a_v))
    bt = L.addressable(L.val(b_v))
    (bm, bk), (_, bn) = a_t.shape, b_t.shape
    b = L.b
    warp, lane = b.udiv(L.tid, c64(32)), b.urem(L.tid, c64(32))
    g, t = b.udiv(lane, c64(4)), b.urem(lane, c64(4))
    row0 = b.add(b.mul(b.udiv(warp, c64(lay.warps_n)), c64(lay.wm)), g)
    col0 = b.add(b.mul(b.urem(warp, c64(lay.warps_n)), c64(lay.wn)), g)
    f4 = ir.LiteralStructType([so.F32] * 4)
    mma = so.declare(L.module, "llvm.nvvm.mma.m16n8k8.row.col.tf32", f4, [I32] * 6 + [so.F32] * 4)

    entry = b.block
    head = L.fn.append_basic_block("tf32_matmul.k")
    done = L.fn.append_basic_block("tf32_matmul.done")
    b.branch(head)
    b.position_at_end(head)
    k0 = b.phi(I64)
    k0.add_incoming(c64(0), entry)
    sums = []
    for v in acc.vals:
        s = b.phi(so.F32)
        s.add_incoming(v, entry)
        sums.append(s)
    ka = b.add(k0, t)
    kb = b.add(ka, c64(4))

    def a_at(row: ir.Value, k: ir.Value) -> ir.Value:
        return to_tf32(b, L.read(a, [row, k], (bm, bk), a_t.dtype))

    def b_at(k: ir.Value, col: ir.Value) -> ir.Value:
        return to_tf32(b, L.read(bt, [k, col], (bk, bn), b_t.dtype))

    a_frags = []
    for mi in range(lay.mi):
        top = b.add(row0, c64(mi * 16))
        low = b.add(top, c64(8))
        a_frags.append([a_at(top, ka), a_at(low, ka), a_at(top, kb), a_at(low, kb)])
    b_frags = []
    for ni in range(lay.ni):
        col = b.add(col0, c64(ni * 8))
        b_frags.append([b_at(ka, col), b_at(kb, col)])
    nexts: list[ir.Value] = list(sums)
    for mi in range(lay.mi):
        for ni in range(lay.ni):
            s = (mi * lay.ni + ni) * 4
            res = b.call(mma, [*a_frags[mi], *b_frags[ni], *nexts[s : s + 4]])
            for i in range(4):
                nexts[s + i] = b.extract_value(res, i)
    k_next = b.add(k0, c64(K_STEP))
    latch = b.block
    k0.add_incoming(k_next, latch)
    for phi, v in zip(sums, nexts, strict=True):
        phi.add_incoming(v, latch)
    b.cbranch(b.icmp_unsigned("<", k_next, c64(bk)), head, done)
    b.position_at_end(done)
    return RegTile(ty, lay, nexts)
