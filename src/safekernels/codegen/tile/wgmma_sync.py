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
- **A or B from shared memory** (the 128-byte-swizzle layout of `codegen.tile.wgmma`) when it is an aligned tile load
  (A also as `tile.transpose(load)`, read MN-major; B also computed in registers, written to shared memory first:
  `codegen.tile.wgmma_operands`).  A load made before the enclosing loop (attention's Q) is staged once by `cp.async`,
  before the loop.  Loads made inside a top-level loop (K, V) are double-buffered and come by the copy engine (TMA,
  the tensor maps of `codegen.tile.tma`): thread 0 issues iterations 0 and 1 before the loop; iteration `it` waits on
  `full[it % 2]` (no fence: TMA writes through the async proxy); after the iteration's last matmul on the buffers each
  warp arrives on `empty[it % 2]` and thread 0, once all have, refills that buffer with iteration `it + 2`.  No CTA
  barrier in the loop.  Without TMA (`TMA = False`, a nested loop, operands TMA cannot take) the copies are
  `cp.async`: iteration `it` waits for its own (`wait_group 0`, `fence.proxy.async`), passes ONE CTA barrier, then
  issues iteration `it + 1`'s into the other buffer. With `warpspec.ATTENTION` a producer warpgroup issues every
  iteration's copies instead (`warpspec.fork_copies`) and the consumers only release the buffers.

Kernels with such a matmul divide f32 values with `divide_f32` (correctly rounded, no subroutine): ptxas
serializes every wgmma of a function that contains a call, and `div.rn.f32` / `rcp.rn.f32` are calls.

`ENABLED = False` (tests) restores the `mma.sync` lowering.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from llvmlite import ir

from safekernels.codegen.tile import mma, tma, warpspec, wgmma, wgmma_operands
from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import Carried, ForOp, Op, Value
from safekernels.codegen.tile.layout import Layout, c64
from safekernels.codegen.tile.values import RegTile
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I32, I64 = so.I32, so.I64
ENABLED = True
TMA = True  # False: the in-loop operands by cp.async under one CTA barrier per iteration (tests compare)
#: Two warpgroups take turns issuing their wgmma in a TMA loop (FlashAttention-3's "ping-pong"): one's softmax
#: runs while the other's matmul holds the tensor cores.  Off: measured 2-9% slower on the H200 for attention
#: (2026-12-01, bench/hopper_variants.py; the softmax of one warpgroup alone takes longer than the other's
#: matmul, and each turn covers one matmul, not FA3's pair), so both issue as soon as they can.
PINGPONG = False
#: A matmul whose result only becomes the loop's next carried value is waited for at the end of the iteration,
#: not at once (FA3's intra-warpgroup overlap, written as a rotated loop; False: tests compare)
DEFER = True
#: The iteration's last matmul (attention's `p @ v`), when its result only becomes a carried value that the next
#: iteration reads after its first matmul (`q @ k^T`), stays in flight across the back edge: the next iteration
#: issues its first matmul behind it and one `wait_group 0` waits for both, so the tensor cores go from one batch
#: to the next without draining in between; the buffers it read are released after that wait (`carry_of`).
#: False: waited for at once (tests compare).
CARRY = True
#: Ping-pong whose turn is FlashAttention-3's pair: with CARRY, a warpgroup takes the turn before its `p @ v` of
#: block j and passes it after its `q @ k^T` of block j + 1, so one warpgroup's pair holds the tensor cores while
#: the other runs its softmax.  Only for a split loop (`codegen.tile.loop_split`) of two matmuls and 8 warps:
#: unsplit, ptxas serialized the pair's wgmma (C7515).  On: +1 to +13.5% over CARRY alone on the H200
#: (2026-12-02, plain attention, 4x32x4096, d = 128 and 64; docs/benchmarks-tile.md).  PINGPONG also asks for it.
PAIR = True
_TURN_BARRIER = 2  # named barriers 2 and 3 (0 is the CTA barrier, 1 the warp-specialized consumers')


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
    if _is_load_operand(L, b_v) is None:  # B comes from shared memory: a copyable load, or staged there
        return wgmma_operands.register_b_ok(L, b_v) and not (
            _is_load_operand(L, a_v) is not None and bk % 64 and not wgmma_operands.mnmajor_a(L, op)
        )
    if mma.kmajor_b(L, b_v):
        if bk % 64 or bn % 16:
            return False
    elif bn % 64 or bk % 16:
        return False
    return not (_is_load_operand(L, a_v) is not None and bk % 64 and not wgmma_operands.mnmajor_a(L, op))


def find(L: TileLowering, ops: list[Op]) -> None:
    for op in ops:
        if isinstance(op, ForOp):
            find(L, op.body)
        elif op.kind == "matmul" and eligible(L, op):
            L.wgmma_sync_ops.add(id(op))
        elif op.kind == "matmul" and wgmma_operands.mnmajor_a(L, op):
            from safekernels.codegen.tile.lower import LoweringError

            raise LoweringError("internal: a matmul reading A MN-major is off the warpgroup path", op.line)
    if ops is L.kir.body:
        _plan_tma(L)


def _loop_loads(L: TileLowering, loop: ForOp) -> list[Op]:
    """The operand loads made in `loop`'s body for its synchronous wgmma matmuls, in first-use order."""
    body_ids = {id(o) for o in loop.body}
    loads: list[Op] = []
    for m in loop.body:
        if m.kind == "matmul" and id(m) in L.wgmma_sync_ops:
            for v in m.args[:2]:
                load = _is_load_operand(L, v)
                if load is not None and id(load) in body_ids and load not in loads:
                    loads.append(load)
    return loads


def _plan_tma(L: TileLowering) -> None:
    """Top-level loops (their mbarrier phases start at iteration 0 once) whose in-loop operands all suit the
    copy engine get them by TMA (`L.tma`, so the launcher passes their tensor maps)."""
    if not (TMA and tma.ENABLED):
        return
    for op in L.kir.body:
        if not isinstance(op, ForOp):
            continue
        loads = _loop_loads(L, op)
        operands = [tma._operand(L, ld) for ld in loads]
        if loads and all(o is not None for o in operands):
            for o in operands:
                assert o is not None
                L.tma[id(o.load)] = o
            L.wg_tma_loops.add(id(op))
            if warpspec.eligible_sync_loop(L, op):  # a producer warpgroup issues the copies
                L.ws_loops.add(id(op))
                L.ws_extra = warpspec.PRODUCER_THREADS


@dataclass
class LoopOperands:
    """The double-buffered in-loop operand loads of one loop's synchronous wgmma matmuls."""

    loop: ForOp
    loads: list[Op]
    bases: dict[int, ir.Value] = field(default_factory=dict)  # id(load) -> buffer 0 (buffer 1 follows)
    nbytes: dict[int, int] = field(default_factory=dict)
    stepped: bool = False
    tma: bool = False  # by the copy engine: `full` / `empty` mbarriers per buffer instead of a CTA barrier
    full: ir.Value | None = None
    empty: ir.Value | None = None
    stop: ir.Value | None = None
    last: int = 0  # id() of the iteration's last matmul reading the buffers (it releases them)
    pingpong: bool = False  # the two warpgroups take turns issuing (PINGPONG)
    deferred: list[Op] = field(default_factory=list)  # matmuls of this iteration not yet waited for
    leader: int = 0  # the thread that issues the copies
    ws: bool = False  # a producer warpgroup issues them (codegen.tile.warpspec): the consumers only release
    carry: Carried | None = None  # the carried value whose matmul stays in flight across the back edge (CARRY)
    pending: bool = False  # this body's first wait also waits for the previous iteration's carried matmul
    pair: bool = False  # PAIR: a turn covers the carried matmul and the next iteration's first


def _nbytes(load: Op) -> int:
    rows, cols = load.attrs["tile_shape"]
    return int(rows * cols * mma.esize(load.result.type.dtype)) if load.result is not None else 0


def _stage_alloc(L: TileLowering, nbytes: int) -> ir.Value:
    return wgmma.align_base(L, L.alloc(nbytes + wgmma.ALIGN, 128))


def start_loop(
    L: TileLowering, loop: ForOp, start: ir.Value, stop: ir.Value, step: ir.Value, defs: dict[int, Op]
) -> LoopOperands | None:
    """Before the loop: stage loop-invariant operands once, allocate two buffers per in-loop operand load and
    issue the first iteration's copies (by TMA: the first two iterations')."""
    body_ids = {id(o) for o in loop.body}
    mats = [o for o in loop.body if o.kind == "matmul" and id(o) in L.wgmma_sync_ops]
    if not mats:
        return None
    invariant = False
    for m in mats:
        for v in m.args[:2]:
            load = _is_load_operand(L, v)
            if load is not None and id(load) not in body_ids and v.id in L.deferred and id(load) not in L.wg_staged:
                base = _stage_alloc(L, _nbytes(load))
                if id(loop) in L.ws_loops:  # the copy's chunks are the T consumer threads' (not the producer's)
                    with L.b.if_then(L.b.icmp_unsigned("<", L.tid, c64(L.T))):
                        mma.issue_copy(L, load, L.origin(load), base, hopper=True)
                else:
                    mma.issue_copy(L, load, L.origin(load), base, hopper=True)
                L.wg_staged[id(load)] = base
                invariant = True
    loads = _loop_loads(L, loop)
    ops = LoopOperands(loop, loads, tma=id(loop) in L.wg_tma_loops, stop=stop)
    for m in mats:
        if any(_is_load_operand(L, v) in loads for v in m.args[:2]):
            ops.last = id(m)
    for load in loads:
        ops.nbytes[id(load)] = _nbytes(load)
        ops.bases[id(load)] = _stage_alloc(L, 2 * _nbytes(load))
    if ops.tma:
        if invariant:
            mma.commit(L)
            mma.wait(L, 0)
            wgmma.proxy_fence(L)
        ops.full = tma.init_barriers(L, 2)
        ops.empty = tma.init_barriers(L, 2, L.T // 32)  # one arrival per warp
        ops.ws = id(loop) in L.ws_loops
        ops.pingpong = PINGPONG and L.T == 256
        if not ops.ws:
            ops.carry = carry_of(L, loop, mats, ops.last)
            split = "split" in loop.attrs  # unsplit, ptxas serialized the pair's wgmma (C7515, nvJitLink 13)
            ops.pair = (PAIR or PINGPONG) and L.T == 256 and ops.carry is not None and len(mats) == 2 and split
            ops.pair = ops.pair and all(_unstaged(L, loop, m) for m in mats)
            if ops.pair:
                ops.pingpong = False
            elif ops.pingpong:
                ops.carry = None  # a turn per matmul, each waited for at once
        ops.leader = L.T if ops.ws else L.T - 128  # the last warpgroup refills (in ping-pong it releases last)
        L.barrier()  # the barriers' initialization and the invariant operands, for every thread
        if ops.ws:
            assert ops.empty is not None

            def issue(j: ir.Value, k: ir.Value) -> None:
                _issue_tma(L, ops, k, L.b.urem(j, c64(2)), defs)

            regs = (warpspec.SYNC_PRODUCER_REGS, warpspec.SYNC_CONSUMER_REGS)
            warpspec.fork_copies(L, issue, ops.empty, 2, start, stop, step, regs)
            if ops.pingpong:  # FlashAttention-3's schedule: producer warpgroup and ping-pong consumers
                with L.b.if_then(L.b.icmp_unsigned(">=", L.tid, c64(128))):
                    _named(L, "bar.arrive", c64(0))
            return ops
        for i in range(2):
            _issue_tma(L, ops, L.b.add(start, L.b.mul(step, c64(i))), c64(i), defs)
        if ops.pingpong or ops.pair:  # warpgroup 1 hands warpgroup 0 the first turn
            with L.b.if_then(L.b.icmp_unsigned(">=", L.tid, c64(128))):
                _named(L, "bar.arrive", c64(0))
        if ops.pair:  # the turn of the first iteration's first matmul (passed after it, or after the loop)
            _take_turn(L)
            L.wg_turn_held = True
        return ops
    _issue(L, ops, start, c64(0), defs)
    if invariant or loads:
        mma.commit(L)
    if invariant and not loads:  # else the first iteration's step waits for them (same commit group)
        mma.wait(L, 0)
        wgmma.proxy_fence(L)
        L.barrier()
    return ops if loads else None


def _issue_tma(L: TileLowering, ops: LoopOperands, k: ir.Value, buf: ir.Value, defs: dict[int, Op]) -> None:
    """Thread 0, when iteration `k` is inside the loop: every in-loop operand of iteration `k` into buffer
    `buf` by the copy engine, completing on `full[buf]`."""
    b = L.b
    assert ops.full is not None and ops.stop is not None
    origins, bases = [], []
    for load in ops.loads:
        origin = []
        for v, s in zip(load.args, load.attrs["tile_shape"], strict=True):
            sv = mma.reeval(L, v, ops.loop, k, defs)
            origin.append(b.mul(sv.value, c64(s)))
        origins.append(origin)
        bases.append(b.gep(ops.bases[id(load)], [b.mul(buf, c64(ops.nbytes[id(load)]))]))
    live = b.icmp_signed("<", k, ops.stop)
    tma.issue(L, cast(Any, tuple(ops.loads)), origins, cast(Any, tuple(bases)), ops.full, buf, live, ops.leader)


def _release(L: TileLowering, ops: LoopOperands, it: ir.Value | None = None, k: ir.Value | None = None) -> None:
    """After the iteration's last matmul on the buffers (its wgmma waited for): each warp arrives on
    `empty[it % 2]`; the leader (the last warpgroup's first thread) waits until every warp has, then refills
    that buffer with iteration `it + 2`.  `it`, `k`: an earlier iteration's (default: this one's)."""
    b = L.b
    _, it_now, k_now, step, defs = L.loop_state[-1]
    it, k = it if it is not None else it_now, k if k is not None else k_now
    assert ops.empty is not None
    buf = b.urem(it, c64(2))
    with b.if_then(b.icmp_unsigned("==", b.urem(L.tid, c64(32)), c64(0))):
        tma._asm(L, "mbarrier.arrive.shared::cta.b64 _, [$0];", "r,~{memory}", [tma._bar(L, ops.empty, buf)])
    if ops.ws:  # the producer warpgroup refills it
        return
    with b.if_then(b.icmp_unsigned("==", L.tid, c64(ops.leader))):
        tma.wait(L, ops.empty, 2, it)
    _issue_tma(L, ops, b.add(k, b.mul(step, c64(2))), buf, defs)


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
    if ops.tma:  # the copy engine writes through the async proxy: no fence, no CTA barrier
        assert ops.full is not None
        tma.wait(L, ops.full, 2, it)
        return
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
    buffer, or (neither) staged here around two CTA barriers; a computed B is written there
    (`wgmma_operands.stage_register_b`)."""
    load = _is_load_operand(L, v)
    if load is None:
        return wgmma_operands.stage_register_b(L, v)
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
    if not L.loop_state:  # staged at the top level: a later matmul (in a loop) reads it from here too
        L.wg_staged[id(load)] = base
    return base


def _pack(b: ir.IRBuilder, lo: ir.Value, hi: ir.Value, dt_name: str) -> ir.Value:
    """Two 16-bit values (f16 or bf16 bits) as one .b32 register, `lo` in the low half."""
    if dt_name == "f16":
        lo, hi = b.bitcast(lo, ir.IntType(16)), b.bitcast(hi, ir.IntType(16))
    return b.or_(b.zext(lo, I32), b.shl(b.zext(hi, I32), ir.Constant(I32, 16)))


def _packed_from_f32(L: TileLowering, v: Value, lay: Layout) -> list[ir.Value] | None:
    """When A is `x.astype(f16 or bf16)` of an f32 register tile already in `lay` (attention's P): its slot
    pairs rounded and packed by one `cvt.rn.{bf16,f16}x2.f32` each (the same rounding as the two scalar
    conversions, one instruction instead of four)."""
    op = L.defs.get(v.id)
    if op is None or op.kind != "astype" or not isinstance(v.type, TileType):
        return None
    src = L.vals.get(op.args[0].id)
    if not isinstance(src, RegTile) or src.layout != lay or src.type.dtype.name != "f32":
        return None
    name = v.type.dtype.name
    asm = ir.InlineAsm(ir.FunctionType(I32, [so.F32, so.F32]), f"cvt.rn.{name}x2.f32 $0, $1, $2;", "=r,f,f")
    b = L.b
    return [b.call(asm, [src.vals[i + 1], src.vals[i]]) for i in range(0, len(src.vals), 2)]


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
    in_loop = ops is not None and L.loop_state[-1][0] is ops.loop
    turns = in_loop and ops is not None and ops.pingpong
    carried = in_loop and ops is not None and ops.carry is not None and op.result is ops.carry.update
    pair = in_loop and ops is not None and ops.pair  # FA3's ping-pong: a turn is (p @ v of j, q @ k^T of j + 1)
    if pair and carried:  # taken right before the issue (the first matmul's began before the previous carried one)
        turns = True
    if _is_load_operand(L, a_v) is not None:
        a_base = _operand_base(L, a_v)
        b_base = _operand_base(L, b_v)
        if turns:
            _take_turn(L)
        if wgmma_operands.mnmajor_a(L, op):
            out = wgmma_operands.issue_mnmajor_a(L, a_base, b_base, (bm, bk, bn), dt, acc, kmajor)
        else:
            out = wgmma.issue(L, a_base, b_base, (bm, bk, bn), dt, acc, kmajor)
    else:
        a_lay = wgmma.layout((bm, bk), L.T)
        packed = _packed_from_f32(L, a_v, a_lay)
        if packed is None:
            regs = L.materialize(L.val(a_v), a_lay, TileType((bm, bk), a_t.dtype)).vals
            packed = [_pack(L.b, regs[i], regs[i + 1], dt) for i in range(0, len(regs), 2)]
        b_base = _operand_base(L, b_v)
        if turns:
            _take_turn(L)
        out = _issue_reg_a(L, packed, b_base, (bm, bk, bn), dt, acc, kmajor)
    if (turns and not pair) or (pair and not carried):
        _pass_turn(L)
    L.wg_turn_held = pair and carried  # held from this carried matmul to the next iteration's first
    if ops is not None and _deferrable(L, ops, op):  # waited for at the end of the iteration (finish_iteration)
        ops.deferred.append(op)
        return out
    if carried:
        return out  # in flight across the back edge: the next iteration's first wait lands it (_land_carried)
    wgmma.wait(L, 0)
    out = wgmma.pin(L, out)
    if in_loop and ops is not None and ops.pending:
        _land_carried(L, ops)
    if ops is not None and ops.tma and id(op) == ops.last and L.loop_state[-1][0] is ops.loop:
        _release(L, ops)
    return out


def _deferrable(L: TileLowering, ops: LoopOperands, op: Op) -> bool:
    """Whether `op`'s wgmma may stay in flight until the end of the iteration: its result is used only as
    the loop's carried value (the next iteration's scores `s_next = q @ k[j + 1]^T` of a software-pipelined
    attention loop), so the tensor cores compute it while the warpgroup runs the rest of the body."""
    if not DEFER or L.loop_state[-1][0] is not ops.loop or id(op) == ops.last or op.result is None:
        return False
    users = L.uses.get(op.result.id, [])
    carried = any(c.update is op.result for c in ops.loop.carried)
    return carried and len(users) == 1 and users[0] is ops.loop


def _reads(op: Op, v: Value) -> bool:
    if any(a is v for a in op.args):
        return True
    return isinstance(op, ForOp) and any(_reads(o, v) for o in op.body)


def carry_of(L: TileLowering, loop: ForOp, mats: list[Op], last: int) -> Carried | None:
    """The carried value of `loop` (a TMA loop) whose matmul may stay in flight across the back edge (`CARRY`):
    the body's last matmul reading the buffers, whose result is only that carried value's update, while the
    body's first matmul is another one; no op up to and including the first matmul reads the carried value, in
    the body and in its mask-free copy (`codegen.tile.loop_split`).  None when another matmul is deferred."""
    if not CARRY or len(mats) < 2 or id(mats[-1]) != last or mats[0] is mats[-1]:
        return None
    res = mats[-1].result
    c = next((c for c in loop.carried if c.update is res), None)
    if res is None or c is None or L.uses.get(res.id, []) != [loop]:
        return None
    if any(cc is not c and cc.update is m.result for cc in loop.carried for m in mats):
        return None  # a pipelined matmul (DEFER) waits at the iteration's end
    loads = _loop_loads(L, loop)
    a_load, b_load = (_is_load_operand(L, v) for v in mats[-1].args[:2])
    if b_load not in loads or not (a_load is None or a_load in loads or id(a_load) not in {id(o) for o in loop.body}):
        return None  # it reads shared memory this loop rewrites before the next wait (a staged computed operand)
    split = loop.attrs.get("split")
    for body in (loop.body, *([split.free_body] if split is not None else [])):
        idx = next((i for i, o in enumerate(body) if o is mats[0]), None)
        if idx is None or any(_reads(o, c.phi) for o in body[: idx + 1]):
            return None
    return c


def _unstaged(L: TileLowering, loop: ForOp, m: Op) -> bool:
    """`m`'s shared-memory operands are double-buffered loads of `loop` or staged before it, so its issue passes
    no CTA barrier (a turn of the pair ping-pong is held across it)."""
    body = {id(o) for o in loop.body}
    a_load, b_load = (_is_load_operand(L, v) for v in m.args[:2])
    loads = _loop_loads(L, loop)
    return b_load is not None and all(ld is None or ld in loads or id(ld) not in body for ld in (a_load, b_load))


def turn_around_barrier(L: TileLowering) -> None:
    """A CTA barrier while this warpgroup holds the pair ping-pong's turn (from its `p @ v` to its next
    `q @ k^T`: the barrier between a split loop's two bodies, a reduction after `p @ v`): the turn is passed
    before it and taken back after it, so the other warpgroup, waiting for the turn, can reach the barrier."""
    _pass_turn(L)
    L.wg_turn_held = False
    L.barrier()
    _take_turn(L)
    L.wg_turn_held = True


def _land_carried(L: TileLowering, ops: LoopOperands) -> None:
    """After this iteration's first wait (which also waited for the previous iteration's carried matmul): the
    carried value read from here on, and the buffers that matmul read released (none before iteration 0)."""
    ops.pending = False
    c = ops.carry
    assert c is not None
    tile = L.val(c.phi)
    assert isinstance(tile, RegTile)
    L.vals[c.phi.id] = RegTile(tile.type, tile.layout, wgmma.pin(L, tile.vals))
    b = L.b
    _, it, k, step, _ = L.loop_state[-1]
    with b.if_then(b.icmp_unsigned("!=", it, c64(0))):
        _release(L, ops, b.sub(it, c64(1)), b.sub(k, step))


def land_exit(L: TileLowering, ops: LoopOperands | None, loop: ForOp, exits: list[list[ir.Value]]) -> None:
    """After the loop: the last iteration's carried matmul waited for and its value pinned; in ping-pong, the
    turn it took (or the one taken before the loop) passed on."""
    if ops is None or ops.carry is None:
        return
    if ops.pair:
        _pass_turn(L)
        L.wg_turn_held = False
    wgmma.wait(L, 0)
    i = next(i for i, c in enumerate(loop.carried) if c is ops.carry)
    exits[i][:] = wgmma.pin(L, exits[i])


def finish_iteration(L: TileLowering, ops: LoopOperands | None) -> None:
    """At the end of the loop body: wait for the deferred wgmma (`_deferrable`) and hand on their results."""
    if ops is None or not ops.deferred:
        return
    wgmma.wait(L, 0)
    for op in ops.deferred:
        assert op.result is not None
        tile = L.val(op.result)
        assert isinstance(tile, RegTile)
        L.vals[op.result.id] = RegTile(tile.type, tile.layout, wgmma.pin(L, tile.vals))
    ops.deferred.clear()


def _named(L: TileLowering, instr: str, wg: ir.Value) -> None:
    """`bar.sync` / `bar.arrive` on warpgroup `wg`'s turn barrier, counting both warpgroups (256 threads)."""
    bar_id = L.b.trunc(L.b.add(wg, c64(_TURN_BARRIER)), I32)
    fty = ir.FunctionType(ir.VoidType(), [I32])
    L.b.call(ir.InlineAsm(fty, f"{instr} $0, 256;", "r,~{memory}", side_effect=True), [bar_id])


def _take_turn(L: TileLowering) -> None:
    """Wait until the other warpgroup has issued its previous wgmma batch (its `_pass_turn`)."""
    _named(L, "bar.sync", L.b.udiv(L.tid, c64(128)))


def _pass_turn(L: TileLowering) -> None:
    """This warpgroup's batch is issued: the other one may issue its next."""
    _named(L, "bar.arrive", L.b.sub(c64(1), L.b.udiv(L.tid, c64(128))))


def _issue_reg_a(
    L: TileLowering,
    a_regs: list[ir.Value],
    b_base: ir.Value,
    shape: tuple[int, int, int],
    dt_name: str,
    acc: list[ir.Value],
    b_kmajor: bool,
) -> list[ir.Value]:
    """`BK / 16` wgmma with A from registers (`a_regs`: the `Mma(BM x BK)` layout's slot pairs packed in .b32
    registers) and B from shared memory."""
    _, bk, bn = shape
    b = L.b
    b_addr = b.ptrtoint(b_base, I64)
    b_desc = wgmma._descriptor(b, b_addr, 16, 1024) if b_kmajor else wgmma._descriptor(b, b_addr, bk * 128, 1024)
    asm = _reg_a_asm(bn, dt_name, 0 if b_kmajor else 1)
    one = ir.Constant(I32, 1)
    # pairs 4kk .. 4kk+3: n8 blocks 2kk and 2kk+1 of the Mma layout (rows r, r+8 each), the k16 A fragment
    fenced = wgmma.fence(L, [*a_regs[: bk // 16 * 4], *acc])
    flat, out = fenced[: bk // 16 * 4], fenced[bk // 16 * 4 :]
    frags = [flat[kk * 4 : kk * 4 + 4] for kk in range(bk // 16)]
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
