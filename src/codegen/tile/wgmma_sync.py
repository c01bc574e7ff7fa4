"""sm_90a: warpgroup MMA for the matmuls that are *not* a GEMM main loop (flash attention's `q @ k^T` and `p @ v`).

`codegen.tile.wgmma` takes a `range` loop whose matmul accumulates two operand loads made in the loop; every
other matmul used to fall back to `mma.sync` with each operand staged in shared memory around two CTA
barriers.  On sm_90a this module lowers such a matmul to `wgmma.mma_async` issued and waited for at once
(`wait_group 0`: the next statement reads the result, e.g. a softmax), when its shapes suit a warpgroup:
BM = 64 per warpgroup, BN a multiple of 64 up to 256 (16 for a K-major B), f16/bf16 operands, and

- **A from registers** when it is computed (attention's `p.astype(bf16)`): the accumulator layout of the
  first matmul (`Mma(shape, num_warps, 1)`, the wgmma D fragment) *is* the register A fragment of the second
  once adjacent pairs are packed (columns `16kk .. 16kk+15` are D's n8 blocks `2kk` and `2kk+1`), the trick
  FlashAttention-3 uses: P never touches shared memory.  Other layouts reach it through shared memory;
- **A or B from shared memory** (the 128-byte-swizzle layout of `codegen.tile.wgmma`, `cp.async`-staged)
  when it is an aligned tile load.  A load made before the enclosing loop (attention's Q) is staged once,
  before the loop.  Loads made inside the loop (K, V) are double-buffered: iteration `it` waits for its own
  copies (`cp.async.wait_group 0`, `fence.proxy.async`), passes ONE CTA barrier (everybody's copies have
  landed, and everybody's wgmma of iteration `it - 1` has completed), then issues iteration `it + 1`'s copies
  into the other buffer, so they fly under this iteration's matmuls and softmax.

`ENABLED = False` (tests) restores the `mma.sync` lowering.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.tile import mma, wgmma
from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import ForOp, Op, Value
from safekernels.codegen.tile.layout import c64
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I32, I64 = so.I32, so.I64
ENABLED = True


def _is_load_operand(L: TileLowering, v: Value) -> Op | None:
    """The aligned tile load that `v` (a matmul operand) is, when it can be staged by cp.async."""
    return L.deferred_candidates.get(v.id)


def eligible(L: TileLowering, op: Op) -> bool:
    """`op` (a matmul outside a wgmma main loop) runs on synchronous warpgroup MMA."""
    if not (ENABLED and L.hopper) or id(op) in L.wgmma_ops:
        return False
    a_v, b_v = op.args[0], op.args[1]
    a_t, b_t = a_v.type, b_v.type
    assert isinstance(a_t, TileType) and isinstance(b_t, TileType)
    if a_t.dtype.name not in ("f16", "bf16") or b_t.dtype != a_t.dtype:
        return False
    (bm, bk), (_, bn) = a_t.shape, b_t.shape
    if L.T % 128 or bm != 64 * (L.T // 128) or bk % 16 or bn > wgmma.MAX_N:
        return False
    if _is_load_operand(L, b_v) is None:
        return False  # B comes from shared memory: a copyable load
    if mma.kmajor_b(L, b_v):
        if bk % 64 or bn % 16:
            return False
    elif bn % 64 or bk % 16:
        return False
    return not (_is_load_operand(L, a_v) is not None and bk % 64)


def find(L: TileLowering, ops: list[Op]) -> None:
    for op in ops:
        if isinstance(op, ForOp):
            find(L, op.body)
        elif op.kind == "matmul" and eligible(L, op):
            L.wgmma_sync_ops.add(id(op))


@dataclass
class LoopOperands:
    """The double-buffered in-loop operand loads of one loop's synchronous wgmma matmuls."""

    loop: ForOp
    loads: list[Op]
    bases: dict[int, ir.Value] = field(default_factory=dict)  # id(load) -> buffer 0 (buffer 1 follows)
    nbytes: dict[int, int] = field(default_factory=dict)
    stepped: bool = False


def _nbytes(load: Op) -> int:
    rows, cols = load.attrs["tile_shape"]
    return int(rows * cols * mma.esize(load.result.type.dtype)) if load.result is not None else 0


def _stage_alloc(L: TileLowering, nbytes: int) -> ir.Value:
    return wgmma.align_base(L, L.alloc(nbytes + wgmma.ALIGN, 128))


def start_loop(L: TileLowering, loop: ForOp, start: ir.Value, defs: dict[int, Op]) -> LoopOperands | None:
    """Before the loop: stage loop-invariant operands once, allocate two buffers per in-loop operand load and
    issue the first iteration's copies."""
    body_ids = {id(o) for o in loop.body}
    mats = [o for o in loop.body if o.kind == "matmul" and id(o) in L.wgmma_sync_ops]
    if not mats:
        return None
    invariant = False
    loads: list[Op] = []
    for m in mats:
        for v in m.args[:2]:
            load = _is_load_operand(L, v)
            if load is None:
                continue
            if id(load) in body_ids:
                if load not in loads:
                    loads.append(load)
            elif v.id in L.deferred and id(load) not in L.wg_staged:
                base = _stage_alloc(L, _nbytes(load))
                mma.issue_copy(L, load, L.origin(load), base, hopper=True)
                L.wg_staged[id(load)] = base
                invariant = True
    ops = LoopOperands(loop, loads)
    for load in loads:
        ops.nbytes[id(load)] = _nbytes(load)
        ops.bases[id(load)] = _stage_alloc(L, 2 * _nbytes(load))
    _issue(L, ops, start, c64(0), defs)
    if invariant or loads:
        mma.commit(L)
    if invariant and not loads:  # else the first iteration's step waits for them (same commit group)
        mma.wait(L, 0)
        wgmma.proxy_fence(L)
        L.barrier()
    return ops if loads else None


def _issue(L: TileLowering, ops: LoopOperands, k: ir.Value, buf: ir.Value, defs: dict[int, Op]) -> None:
    b = L.b
    for load in ops.loads:
        origin = []
        for v, s in zip(load.args, load.attrs["tile_shape"], strict=True):
            sv = mma.reeval(L, v, ops.loop, k, defs)
            origin.append(b.mul(sv.value, c64(s)))
        base = b.gep(ops.bases[id(load)], [b.mul(buf, c64(ops.nbytes[id(load)]))])
        mma.issue_copy(L, load, origin, base, hopper=True)


def _step(L: TileLowering, ops: LoopOperands) -> None:
    """Once per iteration, before its first matmul: this iteration's buffers are complete for every thread and
    every wgmma of the previous iteration is done; then the next iteration's copies go into the other ones."""
    if ops.stepped:
        return
    ops.stepped = True
    b = L.b
    _, it, k, step, defs = L.loop_state[-1]
    mma.wait(L, 0)
    wgmma.proxy_fence(L)
    L.barrier()
    _issue(L, ops, b.add(k, step), b.urem(b.add(it, c64(1)), c64(2)), defs)
    mma.commit(L)


def end_loop(L: TileLowering, ops: LoopOperands | None) -> None:
    """After the loop: the last (unused) prefetch has landed before the buffers could be reused."""
    if ops is not None:
        mma.wait(L, 0)


def _operand_base(L: TileLowering, v: Value) -> ir.Value:
    """Shared-memory base of operand `v` in the wgmma layout: staged before the loop, in this iteration's
    buffer, or (neither) staged here around two CTA barriers."""
    load = _is_load_operand(L, v)
    assert load is not None
    if id(load) in L.wg_staged:
        return L.wg_staged[id(load)]
    for ops in reversed(L.wg_loops):
        if ops is not None and load in ops.loads:
            it = L.loop_state[-1][1]
            return L.b.gep(ops.bases[id(load)], [L.b.mul(L.b.urem(it, c64(2)), c64(ops.nbytes[id(load)]))])
    base = _stage_alloc(L, _nbytes(load))
    L.barrier()
    mma.issue_copy(L, load, L.origin(load), base, hopper=True)
    mma.commit(L)
    mma.wait(L, 0)
    wgmma.proxy_fence(L)
    L.barrier()
    return base


def _pack(b: ir.IRBuilder, lo: ir.Value, hi: ir.Value, dt_name: str) -> ir.Value:
    """Two 16-bit values (f16 or bf16 bits) as one .b32 register, `lo` in the low half."""
    if dt_name == "f16":
        lo, hi = b.bitcast(lo, ir.IntType(16)), b.bitcast(hi, ir.IntType(16))
    return b.or_(b.zext(lo, I32), b.shl(b.zext(hi, I32), ir.Constant(I32, 16)))


def _reg_a_asm(n: int, dt_name: str, trans_b: int) -> ir.InlineAsm:
    m = n // 2
    regs = ", ".join(f"${i}" for i in range(m))
    a = ", ".join(f"${m + i}" for i in range(4))
    text = (
        f"{{ .reg .pred p; setp.ne.b32 p, ${m + 5}, 0; "
        f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{dt_name}.{dt_name} "
        f"{{{regs}}}, {{{a}}}, ${m + 4}, p, 1, 1, {trans_b}; }}"
    )
    cons = ",".join(["=f"] * m + ["r"] * 4 + ["l", "r"] + [str(i) for i in range(m)]) + ",~{memory}"
    fty = ir.FunctionType(ir.LiteralStructType([so.F32] * m), [I32] * 4 + [I64, I32] + [so.F32] * m)
    return ir.InlineAsm(fty, text, cons, side_effect=True)


def lower(L: TileLowering, op: Op, acc: list[ir.Value]) -> list[ir.Value]:
    """The matmul's accumulator after a synchronous wgmma (issued, committed and waited for here)."""
    a_v, b_v = op.args[0], op.args[1]
    a_t, b_t = a_v.type, b_v.type
    assert isinstance(a_t, TileType) and isinstance(b_t, TileType)
    (bm, bk), (_, bn) = a_t.shape, b_t.shape
    dt = a_t.dtype.name
    ops = L.wg_loops[-1] if L.wg_loops else None
    if ops is not None and L.loop_state and L.loop_state[-1][0] is ops.loop:
        _step(L, ops)  # before the first matmul of the iteration, whichever operand it reads
    kmajor = mma.kmajor_b(L, b_v)
    if _is_load_operand(L, a_v) is not None:
        a_base = _operand_base(L, a_v)
        b_base = _operand_base(L, b_v)
        out = wgmma.issue(L, a_base, b_base, (bm, bk, bn), dt, acc, kmajor)
    else:
        a_lay = wgmma.layout((bm, bk), L.T)
        regs = L.materialize(L.val(a_v), a_lay, TileType((bm, bk), a_t.dtype)).vals
        b_base = _operand_base(L, b_v)
        out = _issue_reg_a(L, regs, b_base, (bm, bk, bn), dt, acc, kmajor)
    wgmma.wait(L, 0)
    return wgmma.pin(L, out)


def _issue_reg_a(
    L: TileLowering,
    a_regs: list[ir.Value],
    b_base: ir.Value,
    shape: tuple[int, int, int],
    dt_name: str,
    acc: list[ir.Value],
    b_kmajor: bool,
) -> list[ir.Value]:
    """`BK / 16` wgmma with A from registers (`a_regs` in the `Mma(BM x BK)` layout) and B from shared memory."""
    _, bk, bn = shape
    b = L.b
    b_addr = b.ptrtoint(b_base, I64)
    b_desc = wgmma._descriptor(b, b_addr, 16, 1024) if b_kmajor else wgmma._descriptor(b, b_addr, bk * 128, 1024)
    asm = _reg_a_asm(bn, dt_name, 0 if b_kmajor else 1)
    one = ir.Constant(I32, 1)
    frags = []
    for kk in range(bk // 16):
        v = a_regs[kk * 8 : kk * 8 + 8]  # n8 blocks 2kk and 2kk+1 of the Mma layout: rows r, r+8 each
        frags.append(
            [
                _pack(b, v[0], v[1], dt_name),
                _pack(b, v[2], v[3], dt_name),
                _pack(b, v[4], v[5], dt_name),
                _pack(b, v[6], v[7], dt_name),
            ]
        )
    wgmma._intrinsic(L, "fence", [])
    out = list(acc)
    for kk in range(bk // 16):
        kb, kin = divmod(kk, 4)
        if b_kmajor:
            db = b.add(b_desc, c64((kb * bn * 128 + kin * 32) >> 4))
        else:
            db = b.add(b_desc, c64((kk * 16 * 128) >> 4))
        r = b.call(asm, [*frags[kk], db, one, *out])
        out = [b.extract_value(r, i) for i in range(len(out))]
    wgmma._intrinsic(L, "commit_group", [])
    return out


def divide_f32(L: TileLowering, x: ir.Value, y: ir.Value) -> ir.Value:
    """`x / y` on f32 values, correctly rounded (as `div.rn.f32`), without the subroutine ptxas calls for
    `div.rn`/`rcp.rn`: a function with any call gets every wgmma serialized (ptxas C7509).

    Computed in f64: `r ~ 1/y` from `rcp.approx.ftz.f64` and three Newton steps (relative error < 2^-52),
    `q = x * r` rounded to f64, then to f32.  That last rounding is the correctly rounded quotient: with 24-bit
    significands `x/y` is never closer than 2^-49 (relative) to a midpoint between two f32 values, far more
    than the f64 error.  0, infinities and NaN take `1/y` exactly (inf, 0, NaN) so `x * r` gives IEEE's
    x/0, x/inf, 0/0 and inf/inf."""
    b = L.b
    f64 = ir.DoubleType()
    xd, yd = b.fpext(x, f64), b.fpext(y, f64)
    rcp = ir.InlineAsm(ir.FunctionType(f64, [f64]), "rcp.approx.ftz.f64 $0, $1;", "=d,d")
    fma = so.declare(L.module, "llvm.fma.f64", f64, [f64, f64, f64])
    r = b.call(rcp, [yd])
    one = ir.Constant(f64, 1.0)
    for _ in range(3):
        e = b.call(fma, [b.fneg(yd), r, one])
        r = b.call(fma, [r, e, r])
    ay = b.call(so.declare(L.module, "llvm.fabs.f64", f64, [f64]), [yd])
    sign = so.declare(L.module, "llvm.copysign.f64", f64, [f64, f64])
    zero, inf = (
        b.fcmp_ordered("==", ay, ir.Constant(f64, 0.0)),
        b.fcmp_ordered("==", ay, ir.Constant(f64, float("inf"))),
    )
    exact = b.select(
        zero,
        b.call(sign, [ir.Constant(f64, float("inf")), yd]),
        b.select(inf, b.call(sign, [ir.Constant(f64, 0.0), yd]), yd),
    )
    special = b.or_(b.or_(zero, inf), b.fcmp_unordered("uno", yd, yd))
    return b.fptrunc(b.fmul(xd, b.select(special, exact, r)), so.F32)
