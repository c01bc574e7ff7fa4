"""`tile.matmul` on f32 (and f64) operands, and f16/bf16 ones off the tensor cores' 16-multiple shapes: FMA units.

The tensor cores take f16/bf16/fp8, or f32 only as TF32 (a 10-bit mantissa), which would silently lose 13 bits
of every product.  An f32 `matmul` therefore runs on the FMA units: both operands go to shared memory
(`addressable`), the accumulator tile is laid out in registers as any elementwise result, and a loop over K
updates each thread's elements with `fma(a[i, k], b[k, j], s)` from `s = 0`; the accumulator is added at the
end, as the CPU executor computes `a @ b + acc`.  Results agree with the CPU executor within f32 rounding of
a K-term sum (numpy's summation order differs).  A matmul that opted into TF32 (`input_precision="tf32"`) but
whose shape the tensor cores cannot tile (`codegen.tile.tf32_matmul.fits`) runs here on TF32-rounded inputs.

    a, b --to shared--> loop k in [0, K):  s_e = fma(a[i_e, k], b[k, j_e], s_e)   (e: this thread's slots)
                        result_e = s_e + acc_e
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile import target_rules, tf32_matmul
from safekernels.codegen.tile.ir import Op
from safekernels.codegen.tile.values import RegTile
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I64 = ir.IntType(64)

#: Operand dtypes this path takes (the tensor-core paths take the rest).
FMA_DTYPES = ("f32", "f64")


def takes(L: TileLowering, op: Op) -> bool:
    a_t = op.args[0].type
    if target_rules.off_tensor_cores(op):
        return True
    return isinstance(a_t, TileType) and a_t.dtype.name in FMA_DTYPES and not tf32_matmul.takes(L, op)


def lower(L: TileLowering, op: Op) -> RegTile:
    a_v, b_v, acc_v = op.args
    assert op.result is not None and isinstance(op.result.type, TileType)
    ty = op.result.type
    a_t, b_t = a_v.type, b_v.type
    assert isinstance(a_t, TileType) and isinstance(b_t, TileType)
    dt = ty.dtype
    a = L.addressable(L.val(a_v))
    bt = L.addressable(L.val(b_v))
    layout = L.blocked(ty.shape)
    acc = L.materialize(L.val(acc_v), layout, ty)
    b = L.b
    elem = acc.vals[0].type
    w = layout.width
    coords: list[tuple[ir.Value, ir.Value]] = []
    for g in range(layout.groups):
        row, col = layout.coords(b, L.tid, g)
        coords.extend((row, b.add(col, ir.Constant(I64, j))) for j in range(w))
    k_count = a_t.shape[1]
    entry = b.block
    head = L.fn.append_basic_block("fma_matmul.k")
    done = L.fn.append_basic_block("fma_matmul.done")
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(I64)
    k.add_incoming(ir.Constant(I64, 0), entry)
    sums = []
    for _ in coords:
        s = b.phi(elem)
        s.add_incoming(ir.Constant(elem, 0.0), entry)
        sums.append(s)
    # Rows past the tile (a partial layout's idle slots) read row 0 / column 0: in bounds, never stored.
    rows = ty.shape[0]
    cols = ty.shape[1]
    fma = so.declare(b.module, f"llvm.fma.{'f64' if dt.name == 'f64' else 'f32'}", elem, [elem, elem, elem])
    tf32 = tf32_matmul.wants_tf32(op)  # rounded as on the tensor cores: the product of two is exact in f32
    nexts = []
    for (row, col), s in zip(coords, sums, strict=True):
        r = b.select(b.icmp_unsigned("<", row, ir.Constant(I64, rows)), row, ir.Constant(I64, 0))
        c = b.select(b.icmp_unsigned("<", col, ir.Constant(I64, cols)), col, ir.Constant(I64, 0))
        x = L.read(a, [r, k], (rows, k_count), dt)
        y = L.read(bt, [k, c], (k_count, cols), dt)
        if tf32:
            x, y = (b.bitcast(tf32_matmul.to_tf32(b, v), elem) for v in (x, y))
        nexts.append(b.call(fma, [x, y, s]))
    k_next = b.add(k, ir.Constant(I64, 1))
    latch = b.block
    k.add_incoming(k_next, latch)
    for s, v in zip(sums, nexts, strict=True):
        s.add_incoming(v, latch)
    b.cbranch(b.icmp_unsigned("<", k_next, ir.Constant(I64, k_count)), head, done)
    b.position_at_end(done)
    vals = [b.fadd(s, a_val) for s, a_val in zip(nexts, acc.vals, strict=True)]
    return RegTile(ty, layout, vals)
