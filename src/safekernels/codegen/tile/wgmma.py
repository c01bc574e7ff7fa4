"""`tile.matmul` on Hopper (sm_90a): warpgroup MMA (`wgmma.mma_async.m64nNk16` f16/bf16, `m64nNk32` fp8 e4m3/e5m2,
f32 accumulate).

Used for the GEMM main loop (a `range` loop whose matmul reads two aligned f16/bf16 tile loads, the case
`codegen.tile.mma` pipelines) when the kernel is compiled for `sm_90a` and the tiles fit:

- one warpgroup (4 warps, 128 threads) per 64 accumulator rows: `BM == 64 * num_warps / 4`;
- `BN` a multiple of 64, at most 256 (one `m64nBNk16` instruction per 16 of K), `BK` a multiple of 64.

Shared-memory layout (the wgmma "128-byte swizzle" canonical layouts): an operand of `rows x cols` 2-byte
elements is stored as `cols / 64` column blocks, each `rows` lines of 128 bytes; inside a block the 16-byte
chunk `c` of line `r` sits at chunk `c ^ (r % 8)`, and blocks start 1024-byte aligned, so the logical XOR is
the hardware's address swizzle.  A (BM x BK, row-major) is then K-major: descriptor stride (SBO) 1024 bytes
between 8-row groups, each k16 step advances the start address by 32 bytes inside a block.  B (BK x BN,
row-major) is MN-major (`imm-trans-b = 1`): SBO 1024 bytes between 8-row groups of K, LBO `BK * 128` bytes
between 64-column blocks of N.

A B operand written `tile.transpose(load)` is staged as its load's (BN, BK) rows and read K-major, exactly like
A (SBO 1024, the k-step advancing the start address, `imm-trans-b = 0`).  The 8-bit floats have no transposed
wgmma: their B must be given that way (the (N, K) layout `torch._scaled_mm` also wants), and their lines of
128 bytes hold 128 elements, so BK is a multiple of 128; one instruction covers k32 (32 bytes, as f16's k16).

The copies are `cp.async` (16 bytes, zero-filled past the tensor's edge) by all threads over `S` stages
(3 or 4).  Iteration `it` of the loop: wait for its stage's copies (`cp.async.wait_group S-3`),
`fence.proxy.async` (the copies are generic-proxy writes, wgmma reads through the async proxy), barrier,
refill stage `(it + S - 2) % S` (read by the wgmma of iteration `it - 2`, which every warpgroup has waited
for before this barrier), then `wgmma.fence`, `BK / 16` wgmma, `commit_group`, `wait_group 1`: the tensor
cores work on iteration `it - 1`'s batch while iteration `it`'s copies and batch are issued.

The accumulator layout is `Mma(shape, num_warps, 1)`: warp `w` owns rows `16w .. 16w + 15`, which is
exactly the wgmma D fragment of its warpgroup, so the epilogue (bias, ReLU, conversion, store) is shared with
the `mma.sync` path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import Op
from safekernels.codegen.tile.layout import Mma, c64
from safekernels.codegen.tile.target_rules import MAX_N as MAX_N
from safekernels.codegen.tile.target_rules import MAX_STAGES as MAX_STAGES
from safekernels.codegen.tile.target_rules import SMEM_BUDGET as SMEM_BUDGET
from safekernels.codegen.tile.target_rules import shape_ok as shape_ok
from safekernels.codegen.tile.target_rules import stages_for as stages_for
from safekernels.codegen.tile.target_rules import warps_for as warps_for
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I32, I64 = so.I32, so.I64
ALIGN = 1024  # a 128-byte swizzle atom is 8 lines of 128 bytes (the warpgroup shapes are target rules)


F8_PTX = {"f8e4m3": "e4m3", "f8e5m2": "e5m2"}


def eligible(L: TileLowering, op: Op) -> bool:
    """`op` (a matmul inside a pipelined loop) runs on wgmma."""
    if not L.hopper:
        return False
    a_t, b_t = op.args[0].type, op.args[1].type
    assert isinstance(a_t, TileType) and isinstance(b_t, TileType)
    if a_t.dtype.name not in ("f16", "bf16", *F8_PTX) or b_t.dtype != a_t.dtype:
        return False
    es = 1 if a_t.dtype.name in F8_PTX else 2
    if es == 1 and op.args[1].id not in L.transposed_operands:
        return False  # fp8 wgmma reads B K-major only
    (bm, bk), (_, bn) = a_t.shape, b_t.shape
    if not shape_ok(bm, bn, bk * es // 2, L.T) or (bk * es) % 128:
        return False
    return stages_for((bm * bk + bk * bn) * es) >= 3


def layout(shape: tuple[int, int], threads: int) -> Mma:
    return Mma(shape, threads // 32, 1)


def smem_offset(b: ir.IRBuilder, row: ir.Value, chunk: ir.Value, rows: int) -> ir.Value:
    """Byte offset of 16-byte chunk `chunk` of line `row` in an operand of `rows` lines (64-column blocks)."""
    blk = b.udiv(chunk, c64(8))
    c = b.urem(chunk, c64(8))
    swz = b.xor(c, b.urem(row, c64(8)))
    return b.add(b.add(b.mul(blk, c64(rows * 128)), b.mul(row, c64(128))), b.mul(swz, c64(16)))


def align_base(L: TileLowering, base: ir.Value) -> ir.Value:
    """`base` (allocated with ALIGN spare bytes) rounded up to the next ALIGN boundary of the shared window."""
    b = L.b
    addr = b.ptrtoint(base, I64)
    pad = b.and_(b.sub(c64(ALIGN), b.and_(addr, c64(ALIGN - 1))), c64(ALIGN - 1))
    return b.gep(base, [pad])


def proxy_fence(L: TileLowering) -> None:
    asm = ir.InlineAsm(ir.FunctionType(ir.VoidType(), []), "fence.proxy.async.shared::cta;", "~{memory}", True)
    L.b.call(asm, [])


def _intrinsic(L: TileLowering, name: str, args: list[ir.Value]) -> None:
    fn = so.declare(L.module, f"llvm.nvvm.wgmma.{name}.sync.aligned", ir.VoidType(), [a.type for a in args])
    L.b.call(fn, args)


def wait(L: TileLowering, pending: int) -> None:
    _intrinsic(L, "wait_group", [c64(pending)])


def _descriptor(b: ir.IRBuilder, addr: ir.Value, lbo: int, sbo: int) -> ir.Value:
    """64-bit wgmma shared-memory matrix descriptor, 128-byte swizzle."""
    lo = uniform(b, b.lshr(b.and_(addr, c64(0x3FFFF)), c64(4)))
    const = (((lbo >> 4) & 0x3FFF) << 16) | (((sbo >> 4) & 0x3FFF) << 32) | (1 << 62)
    return b.or_(lo, c64(const))


#: Descriptors built from values broadcast from lane 0 (`uniform`); False: as computed (tests compare).
UNIFORM = True


def uniform(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """`x` (an i64 below 2**32 that every lane of the warp holds) broadcast from lane 0 by `shfl.sync.idx`, so
    ptxas can prove it warp-uniform (CUTLASS's `canonical_warp_group_idx`): a wgmma descriptor computed from
    it stays in uniform registers instead of being moved there (`R2UR`) before every `HGMMA`.  Only where the
    whole warp runs (wgmma is `.sync.aligned`)."""
    if not UNIFORM:
        return x
    fn = so.declare(b.module, "llvm.nvvm.shfl.sync.idx.i32", I32, [I32, I32, I32, I32])
    lane0 = b.call(fn, [ir.Constant(I32, -1), b.trunc(x, I32), ir.Constant(I32, 0), ir.Constant(I32, 31)])
    return b.zext(lane0, I64)


def warpgroup(L: TileLowering) -> ir.Value:
    """The thread's warpgroup, `tid / 128` (i64), warp-uniform (`uniform`)."""
    return uniform(L.b, L.b.udiv(L.tid, c64(128)))


def _mma_asm(n: int, dt_name: str, trans_b: int = 1) -> ir.InlineAsm:
    regs = ", ".join(f"${i}" for i in range(n // 2))
    m = n // 2
    if dt_name in F8_PTX:  # no transpose immediates for 8-bit inputs: both operands K-major
        t = F8_PTX[dt_name]
        shape, tail = f"k32.f32.{t}.{t}", "p, 1, 1"
    else:
        shape, tail = f"k16.f32.{dt_name}.{dt_name}", f"p, 1, 1, 0, {trans_b}"
    text = (
        f"{{ .reg .pred p; setp.ne.b32 p, ${m + 2}, 0; "
        f"wgmma.mma_async.sync.aligned.m64n{n}{shape} "
        f"{{{regs}}}, ${m}, ${m + 1}, {tail}; }}"
    )
    cons = ",".join(["=f"] * m + ["l", "l", "r"] + [str(i) for i in range(m)]) + ",~{memory}"
    ret = ir.LiteralStructType([so.F32] * m)
    fty = ir.FunctionType(ret, [I64, I64, I32] + [so.F32] * m)
    return ir.InlineAsm(fty, text, cons, side_effect=True)


def pin(L: TileLowering, vals: list[ir.Value]) -> list[ir.Value]:
    """The accumulators after `wgmma.wait_group 0`, passed through an empty asm so no read moves above it."""
    b = L.b
    m = len(vals)
    cons = ",".join(["=f"] * m + [str(i) for i in range(m)])
    asm = ir.InlineAsm(ir.FunctionType(ir.LiteralStructType([so.F32] * m), [so.F32] * m), "", cons, True)
    r = b.call(asm, vals)
    return [b.extract_value(r, i) for i in range(m)]


#: Pass the registers a wgmma batch reads (accumulators, a register A) through an empty asm right before its
#: `wgmma.fence`, so that every write to them -- the copies LLVM makes for the asm's tied operands, the zeros of
#: a peeled first iteration -- lands before the fence (CUTLASS's `warpgroup_fence_operand`).  Without it a
#: whole-program ptxas (`codegen.whole_program`) injects a `warpgroup.arrive` (C7519) and, in a warp-specialized
#: kernel whose consumer branch it sees as divergent, serializes every wgmma (C7520).
FENCE_OPERANDS = True


def fence(L: TileLowering, regs: list[ir.Value]) -> list[ir.Value]:
    """`wgmma.fence`, with `regs` (f32 accumulators or i32 A fragments) materialized before it."""
    if FENCE_OPERANDS and regs:
        b = L.b
        codes = ["=f" if r.type == so.F32 else "=r" for r in regs]
        cons = ",".join(codes + [str(i) for i in range(len(regs))])
        fty = ir.FunctionType(ir.LiteralStructType([r.type for r in regs]), [r.type for r in regs])
        res = b.call(ir.InlineAsm(fty, "", cons, side_effect=True), regs)
        regs = [b.extract_value(res, i) for i in range(len(regs))]
    _intrinsic(L, "fence", [])
    return regs


def issue(
    L: TileLowering,
    a_base: ir.Value,
    b_base: ir.Value,
    shape: tuple[int, int, int],
    dt_name: str,
    acc: list[ir.Value],
    b_kmajor: bool = False,
) -> list[ir.Value]:
    """Issue (and commit) this iteration's wgmma batch on one stage; the caller waits with `wait(L, 1)`.
    `shape` is (BM, BK, BN) in elements; `b_kmajor`: B is staged as (BN, BK) rows."""
    bm, bk, bn = shape
    b = L.b
    kbytes = bk * (1 if dt_name in F8_PTX else 2)  # one instruction per 32 bytes of K, 4 per 128-byte line
    a_addr = b.add(b.ptrtoint(a_base, I64), b.mul(warpgroup(L), c64(64 * 128)))
    b_addr = b.ptrtoint(b_base, I64)
    a_desc = _descriptor(b, a_addr, 16, 1024)
    b_desc = _descriptor(b, b_addr, 16, 1024) if b_kmajor else _descriptor(b, b_addr, bk * 128, 1024)
    asm = _mma_asm(bn, dt_name, 0 if b_kmajor else 1)
    one = ir.Constant(I32, 1)
    out = fence(L, list(acc))
    for kk in range(kbytes // 32):
        kb, kin = divmod(kk, 4)
        da = b.add(a_desc, c64((kb * bm * 128 + kin * 32) >> 4))
        if b_kmajor:
            db = b.add(b_desc, c64((kb * bn * 128 + kin * 32) >> 4))
        else:
            db = b.add(b_desc, c64((kk * 16 * 128) >> 4))
        r = b.call(asm, [da, db, one, *out])
        out = [b.extract_value(r, i) for i in range(len(out))]
    _intrinsic(L, "commit_group", [])
    return out
