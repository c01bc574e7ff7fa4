"""sm_90a: warpgroup-MMA operands that are not a plain tile load read as is.

`codegen.tile.wgmma_sync` reads A and B from the 128-byte-swizzle shared-memory layout of `codegen.tile.wgmma`
(an operand of `rows x cols` 2-byte elements as `cols / 64` column blocks of `rows` 128-byte lines, 16-byte
chunk `c` of line `r` at chunk `c ^ (r % 8)`).  Two more operand forms reach that path here, both needed by the
FlashAttention-2 backward pass, where dQ = dS K comes from the same tiles as dK = dS^T Q:

- **A written `tile.transpose(load)`** (`K^T` in `dQ^T = K^T dS^T`): the load is staged as its own (BK, BM)
  rows, exactly as for any other use, and wgmma reads it MN-major (`imm-trans-a = 1`): warpgroup `w` takes
  the 64-column block `w` (its 64 rows of M), each k16 step 16 lines further on, LBO `BK * 128` bytes between
  64-wide blocks of M, SBO 1024 between 8-line groups of K -- the descriptor of an MN-major B with M for N.
  So one staged tile serves a plain A or B use, a K-major B (`tile.transpose(t)` as B) and this one;
- **B computed in registers** (`dS^T` as a `(BK, BN)` f16/bf16 tile): each thread writes its slots into the
  swizzled layout (the accumulator layout writes whole 4-byte pairs; a quad's eight rows land in eight
  different chunks, so a warp's store touches all 32 banks once), `fence.proxy.async` (generic-proxy writes
  that the async proxy reads next), one CTA barrier, then the usual MN-major B descriptor.  A CTA barrier
  before the writes keeps them off the buffer while another warpgroup may still read the previous use.

`mnmajor_a(L, op)` says which matmuls read A the first way; `stage_register_b` does the second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile import wgmma
from safekernels.codegen.tile.ir import Op, Value
from safekernels.codegen.tile.layout import c64
from safekernels.codegen.tile.values import RegTile
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I16, I32, I64 = ir.IntType(16), so.I32, so.I64


def mnmajor_a(L: TileLowering, op: Op) -> bool:
    """Whether matmul `op` reads A as `tile.transpose(load)` staged (BK, BM), MN-major."""
    return op.args[0].id in L.mnmajor_a


#: Ops whose result is a tile load seen another way: such a B (a load cp.async cannot stage, e.g. a ragged GEMM's)
#: keeps the `mma.sync` path rather than being read into registers and written back.
_LOAD_VIEWS = ("load", "transpose", "reshape", "broadcast_to")


def register_b_ok(L: TileLowering, b_v: Value) -> bool:
    """B is computed (an elementwise op's or a matmul's result, e.g. attention's `dS^T`), f16/bf16, and fits the
    MN-major layout: (BK, BN) with 64-column blocks and whole 8-line swizzle atoms."""
    b_t = b_v.type
    op = L.defs.get(b_v.id)
    if not isinstance(b_t, TileType) or op is None or op.kind in _LOAD_VIEWS:
        return False
    bk, bn = b_t.shape
    return b_t.dtype.name in ("f16", "bf16") and bn % 64 == 0 and bk % 16 == 0


def stage_register_b(L: TileLowering, v: Value) -> ir.Value:
    """Write B (a computed (BK, BN) tile) into a fresh 128-byte-swizzle buffer, MN-major; returns its base,
    readable by wgmma once every thread is past the barrier this emits."""
    t = v.type
    assert isinstance(t, TileType)
    bk, bn = t.shape
    b = L.b
    base = wgmma.align_base(L, L.alloc(bk * bn * 2 + wgmma.ALIGN, 128))
    r = L.val(v)
    if not isinstance(r, RegTile) or r.type.shape != t.shape:
        r = L.materialize(r, L.blocked(t.shape), t)
    elif r.type.dtype != t.dtype:
        r = L.materialize(r, r.layout, t)
    lay = r.layout
    w = lay.width
    L.barrier()  # the previous wgmma reading this buffer (another warpgroup's) is done
    for g in range(lay.groups):
        row, col = lay.coords(b, L.tid, g)
        vals = [_bits(b, x) for x in r.vals[g * w : (g + 1) * w]]
        active = lay.active(b, L.tid, g)

        def emit(row: ir.Value = row, col: ir.Value = col, vals: list[ir.Value] = vals) -> None:
            pairs = w % 2 == 0 and lay.shape[-1] % 2 == 0 and _even_columns(lay)
            step = 2 if pairs else 1
            for j in range(0, w, step):
                c = b.add(col, c64(j)) if j else col
                off = b.add(wgmma.smem_offset(b, row, b.udiv(c, c64(8)), bk), b.mul(b.urem(c, c64(8)), c64(2)))
                p = b.gep(base, [off])
                if pairs:
                    word = b.or_(b.zext(vals[j], I32), b.shl(b.zext(vals[j + 1], I32), ir.Constant(I32, 16)))
                    b.store(word, b.bitcast(p, ir.PointerType(I32, addrspace=3)), align=4)
                else:
                    b.store(vals[j], b.bitcast(p, ir.PointerType(I16, addrspace=3)), align=2)

        if active is None:
            emit()
        else:
            with b.if_then(active):
                emit()
    wgmma.proxy_fence(L)
    L.barrier()
    return base


def _even_columns(lay: object) -> bool:
    """Every group of `lay` starts at an even column (pairs of 2-byte elements are whole aligned words)."""
    from safekernels.codegen.tile.layout import Blocked, Mma

    if isinstance(lay, Mma):
        return True
    return isinstance(lay, Blocked) and lay.vec % 2 == 0


def _bits(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """A 16-bit float value as its i16 bits."""
    return x if x.type == I16 else b.bitcast(x, I16)


def issue_mnmajor_a(
    L: TileLowering,
    a_base: ir.Value,
    b_base: ir.Value,
    shape: tuple[int, int, int],
    dt_name: str,
    acc: list[ir.Value],
    b_kmajor: bool,
) -> list[ir.Value]:
    """`BK / 16` wgmma (committed, not waited for) with A = transpose of the tile at `a_base`, staged as (BK, BM)
    rows, read MN-major, and B from shared memory at `b_base`."""
    _bm, bk, bn = shape
    b = L.b
    wg = b.udiv(L.tid, c64(128))
    a_addr = b.add(b.ptrtoint(a_base, I64), b.mul(wg, c64(bk * 128)))
    b_addr = b.ptrtoint(b_base, I64)
    a_desc = wgmma._descriptor(b, a_addr, bk * 128, 1024)
    b_desc = wgmma._descriptor(b, b_addr, 16, 1024) if b_kmajor else wgmma._descriptor(b, b_addr, bk * 128, 1024)
    asm = _asm(bn, dt_name, 0 if b_kmajor else 1)
    one = ir.Constant(I32, 1)
    out = wgmma.fence(L, list(acc))
    for kk in range(bk // 16):
        kb, kin = divmod(kk, 4)
        da = b.add(a_desc, c64((kk * 16 * 128) >> 4))
        if b_kmajor:
            db = b.add(b_desc, c64((kb * bn * 128 + kin * 32) >> 4))
        else:
            db = b.add(b_desc, c64((kk * 16 * 128) >> 4))
        res = b.call(asm, [da, db, one, *out])
        out = [b.extract_value(res, i) for i in range(len(out))]
    wgmma._intrinsic(L, "commit_group", [])
    return out


def _asm(n: int, dt_name: str, trans_b: int) -> ir.InlineAsm:
    m = n // 2
    regs = ", ".join(f"${i}" for i in range(m))
    text = (
        f"{{ .reg .pred p; setp.ne.b32 p, ${m + 2}, 0; "
        f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{dt_name}.{dt_name} "
        f"{{{regs}}}, ${m}, ${m + 1}, p, 1, 1, 1, {trans_b}; }}"
    )
    cons = ",".join(["=f"] * m + ["l", "l", "r"] + [str(i) for i in range(m)]) + ",~{memory}"
    fty = ir.FunctionType(ir.LiteralStructType([so.F32] * m), [I64, I64, I32] + [so.F32] * m)
    return ir.InlineAsm(fty, text, cons, side_effect=True)
