"""Warp specialization of a TMA-fed warpgroup-MMA main loop: one producer warpgroup, consumer warpgroups.

Taken by the kernel's top-level GEMM loop (`codegen.tile.tma` feeds its operands) when everything before the
loop is scalar work or lazily built tiles (tile-block ids, tensor extents, constants, scalars, `tile.zeros`):
then the extra warpgroup can branch off at the loop with nothing else to do.  The CTA gets
`T + 128` threads (`T` = the consumers, whose thread ids and layouts are unchanged):

- after the stage buffers and barriers exist (`full[S]`, one arrival + the copy bytes; `empty[S]`, one arrival
  per consumer warpgroup) and one CTA barrier, threads `>= T` lower their register budget
  (`setmaxnreg.dec 40`) and thread `T` alone runs the producer loop: for every iteration `j`, wait until
  stage `j % S` is released (`empty`, the parity before `(j / S) & 1`; a fresh barrier passes), then
  `expect_tx` + the boxes on `full[j % S]`; then the producer warps exit;
- the consumers raise theirs (`setmaxnreg.inc 232`; 128 x 40 + 256 x 232 registers fit the SM's 64 K) and run
  the loop: wait `full[it % S]`, issue the wgmma batch, `wgmma.wait_group 1`, and one thread per warpgroup
  arrives on `empty[(it - 1) % S]` (batch `it - 1` is done) -- no CTA barrier anywhere in the loop;
- every CTA barrier after the fork is the named barrier 1 over the `T` consumer threads (`bar.sync 1, T`).

The kernel declares `.maxntid T + 128` and `.minnctapersm 1` so that ptxas caps registers at entry (without a
cap `setmaxnreg` is ignored).  All `S` stages are in flight (no `S - 2` prefetch distance: release is
explicit).  Only a whole-program compile honours `setmaxnreg`: such kernels are loaded through the driver's JIT
(`codegen.whole_program`), not nvJitLink's relocatable cubin.

`ATTENTION` applies the same split to flash attention's key/value loop (`codegen.tile.wgmma_sync`, the
synchronous-wgmma TMA loop): `fork_copies` with 24 / 240 registers; the consumers stage Q before the fork,
arrive on `empty` per warp after the iteration's last matmul and never refill; the producer's thread `T`
issues every iteration's K and V boxes.  With `wgmma_sync.PINGPONG` the two consumer warpgroups also take turns
at the tensor cores (FlashAttention-3's schedule).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile import tma
from safekernels.codegen.tile.ir import PURE_KINDS, ForOp, Op
from safekernels.codegen.tile.layout import c64

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

PRODUCER_THREADS = 128
PRODUCER_REGS = 40
CONSUMER_REGS = 232
#: Off by default: measured 7-12% slower than the default path (persistent grid, TMA-store epilogue) on the H200
#: with `setmaxnreg` honoured through the driver's whole-program JIT (`codegen.whole_program`; 2026-12-02, GEMM
#: f16/bf16 4096^3 and 8192^3, kernel only: 603-647 vs 679-714 TFLOP/s; see docs/tile-compiler.md).  True: TMA
#: loops are warp-specialized.
ENABLED = False
#: Synchronous-wgmma TMA loops (flash attention's key/value loop, `codegen.tile.wgmma_sync`) get a producer
#: warpgroup too.  Off: on the H200 (2026-12-02) +1% at d = 128 (within the spread) and -3 to -4% at d = 64,
#: with or without `wgmma_sync.PINGPONG` (docs/benchmarks-tile.md).
ATTENTION = False
SYNC_PRODUCER_REGS = 24
SYNC_CONSUMER_REGS = 240  # 128 x 24 + 256 x 240 registers fit the SM's 64 K (FlashAttention-3's split)
#: What may come before such a loop besides pure ops: the tile loads it stages (Q) and lazily built tiles
#: (`tile.iota` reshaped and offset: attention's row and column positions).
_LAZY_KINDS = frozenset({"reshape", "add", "sub", "mul"})


def eligible(L: TileLowering, loop: ForOp) -> bool:
    """The loop is at the kernel's top level and only pure ops come before it (the first such loop)."""
    if not ENABLED or L.ws_loops or L.T % 128:
        return False
    for op in L.kir.body:
        if op is loop:
            return True
        if isinstance(op, ForOp) or op.kind not in PURE_KINDS:
            return False
    return False


def eligible_sync_loop(L: TileLowering, loop: ForOp) -> bool:
    """`loop`, a top-level synchronous-wgmma loop whose operands come by TMA, may be split: `ATTENTION` is on
    and before it come only pure ops, tile loads that only matmuls read (staged in shared memory before the
    loop, by the consumers), and reshapes / sums / products of lazily built tiles."""
    if not ATTENTION or L.ws_loops or L.T % 128:
        return False
    lazy: set[int] = set()
    for op in L.kir.body:
        if op is loop:
            return True
        if isinstance(op, ForOp):
            return False
        if op.kind == "load":
            users = L.uses.get(op.result.id, []) if op.result is not None else []
            if not users or any(u.kind != "matmul" for u in users):
                return False
            continue
        if op.kind not in PURE_KINDS and not (op.kind in _LAZY_KINDS and all(a.id in lazy for a in op.args)):
            return False
        if op.result is not None:
            lazy.add(op.result.id)
    return False


def _asm(L: TileLowering, text: str) -> None:
    L.b.call(ir.InlineAsm(ir.FunctionType(ir.VoidType(), []), text, "~{memory}", side_effect=True), [])


def named_barrier(L: TileLowering) -> None:
    """The consumers' CTA barrier after the fork: barrier 1 over the T consumer threads."""
    _asm(L, f"bar.sync 1, {L.T};")


def fork(
    L: TileLowering, pipe: Any, loop: ForOp, start: ir.Value, stop: ir.Value, step: ir.Value, defs: dict[int, Op]
) -> None:
    """Branch the producer warpgroup off into its copy loop; the builder continues in the consumers."""
    from safekernels.codegen.tile import mma

    assert pipe.empty is not None

    def issue(j: ir.Value, k: ir.Value) -> None:
        mma.issue_iteration(L, pipe, loop, k, L.b.urem(j, c64(pipe.stages)), defs)

    fork_copies(L, issue, pipe.empty, pipe.stages, start, stop, step, (PRODUCER_REGS, CONSUMER_REGS))


def fork_copies(
    L: TileLowering,
    issue: Callable[[ir.Value, ir.Value], None],
    empty: ir.Value,
    stages: int,
    start: ir.Value,
    stop: ir.Value,
    step: ir.Value,
    regs: tuple[int, int],
) -> None:
    """Threads `>= T` lower their registers to `regs[0]` and thread `T` runs `issue(j, k)` for every
    iteration `j` (loop index `k`), each once stage `j % stages` is released on `empty`; then they exit.  The
    consumers raise theirs to `regs[1]` and the builder continues in them."""
    b = L.b
    fn = b.function
    prod = fn.append_basic_block("ws.producer")
    lead = fn.append_basic_block("ws.lead")
    head = fn.append_basic_block("ws.head")
    body = fn.append_basic_block("ws.body")
    done = fn.append_basic_block("ws.done")
    cons = fn.append_basic_block("ws.consumer")
    b.cbranch(b.icmp_unsigned(">=", L.tid, c64(L.T)), prod, cons)
    b.position_at_end(prod)
    _asm(L, f"setmaxnreg.dec.sync.aligned.u32 {regs[0]};")
    b.cbranch(b.icmp_unsigned("==", L.tid, c64(L.T)), lead, done)
    b.position_at_end(lead)
    b.branch(head)
    b.position_at_end(head)
    j = b.phi(so.I64, "ws.j")
    j.add_incoming(c64(0), lead)
    k = b.add(start, b.mul(j, step))
    b.cbranch(b.icmp_signed("<", k, stop), body, done)
    b.position_at_end(body)
    tma.wait(L, empty, stages, j, flip=True)
    issue(j, k)
    j.add_incoming(b.add(j, c64(1)), b.block)
    b.branch(head)
    b.position_at_end(done)
    b.ret_void()
    b.position_at_end(cons)
    _asm(L, f"setmaxnreg.inc.sync.aligned.u32 {regs[1]};")
    L.ws_barrier = True


def release(L: TileLowering, pipe: Any) -> None:
    """After `wgmma.wait_group 1` in iteration `it`: batch `it - 1` is done, its stage may be refilled."""
    b = L.b
    it = L.loop_state[-1][1]
    assert pipe.empty is not None
    first = b.icmp_unsigned("==", b.urem(L.tid, c64(128)), c64(0))
    with b.if_then(b.and_(first, b.icmp_unsigned(">", it, c64(0)))):
        bar = b.gep(pipe.empty, [b.mul(b.urem(b.sub(it, c64(1)), c64(pipe.stages)), c64(8))])
        fty = ir.FunctionType(ir.VoidType(), [bar.type])
        b.call(ir.InlineAsm(fty, "mbarrier.arrive.shared::cta.b64 _, [$0];", "r,~{memory}", True), [bar])
