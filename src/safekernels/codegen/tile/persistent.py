"""A persistent grid for the Hopper TMA GEMM: one CTA per SM walks the output tiles, and the copy engine
fetches the next tile's first stages while the current tile's epilogue runs.

Taken (on sm_90a) by a kernel whose top level is pure scalar work or lazily built tiles (`ir.PURE_KINDS`: tile-block
ids, extents, constants, `tile.zeros`), then the one `range` loop whose matmul operands come by TMA
(`codegen.tile.tma`), then anything (the epilogue: bias, ReLU, casts, the store).  The whole kernel body
is lowered once inside a loop over virtual tile blocks:

    for vb in range(ctaid.x, prod(grid), nctaid.x):      # grouped tile order as before (lower.block_ids)
        body                                             # tile.bid(axis) reads vb's coordinates

so launching `prod(grid)` CTAs is still correct (each runs one tile) and the launcher launches
`min(prod(grid), SMs)` (`CompiledTile.persistent`).  What carries across tiles:

- the `full` mbarriers are initialized once (the CTA's first tile) and their phases continue: the main loop's
  iteration counter starts at the CTA's running count `g0` (tiles before this one, summed trip counts), so
  stage `it % S` and parity `(it / S) & 1` keep matching the copies issued into that stage;
- the prologue (the first `S - 2` stages) of tile `vb + nctaid.x` is issued by thread 0 right after tile
  `vb`'s main loop (after its last `wgmma.wait_group 0` and a CTA barrier, so no warpgroup still reads a
  stage), before the epilogue: the copies land while the accumulators are converted and stored.  The next
  tile's loads are found by re-evaluating the loads' index arithmetic (and the loop bounds) with the next
  tile's block ids (`mma.reeval` over the pure ops before the loop);
- a CTA barrier ends every tile, so shared memory the epilogue used (layout changes, reductions) is free again.

Kernels that do not have that shape keep one CTA per tile block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile.ir import PURE_KINDS, ForOp, Op
from safekernels.codegen.tile.layout import c64

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I32, I64 = so.I32, so.I64
#: False: every kernel launches one CTA per tile block (tests compare the two)
ENABLED = True
#: False: each tile issues its own prologue when its main loop starts (bench/hopper_variants.py compares)
PREFETCH_NEXT = True


@dataclass
class Persistent:
    """The plan (`loop`, `pre`) and, while the body is lowered, the tile loop's registers."""

    loop: ForOp  # the TMA main loop
    pre: list[Op]  # the pure ops before it
    vb: ir.Value | None = None  # this tile's linear (virtual) block id
    stride: ir.Value | None = None  # nctaid.x
    total: ir.Value | None = None  # prod(grid)
    first: ir.Value | None = None  # i1: the CTA's first tile (barriers to initialize, prologue to issue)
    counter: ir.Value | None = None  # i64 slot: main-loop iterations of the CTA's earlier tiles
    pre_defs: dict[int, Op] = field(default_factory=dict)


def plan(L: TileLowering) -> None:
    """Set `L.persistent` when the kernel has the shape the module docstring describes."""
    from safekernels.codegen.tile import mma

    if not ENABLED or not L.hopper or not L.tma or L.ws_loops or L.wgmma_sync_ops:
        return
    pre: list[Op] = []
    loop: ForOp | None = None
    for op in L.kir.body:
        if isinstance(op, ForOp):
            loop = op
            break
        if op.kind not in PURE_KINDS:
            return
        pre.append(op)
    if loop is None:
        return
    found = mma.pipelined_matmul(L, loop)
    if found is None or set(L.tma) != {id(found[1]), id(found[2])}:
        return  # the only copy-engine operands are this loop's
    L.persistent = Persistent(loop, pre, pre_defs={op.result.id: op for op in pre if op.result is not None})


def lower_kernel(L: TileLowering) -> None:
    """The kernel body inside the loop over this CTA's tiles (see the module docstring)."""
    P = L.persistent
    assert P is not None
    b = L.b
    first_vb = L.sreg("ctaid.x")
    P.stride = L.sreg("nctaid.x")
    total: ir.Value = c64(1)
    for g in L.grid:
        total = b.mul(total, g)
    P.total = total
    P.counter = b.alloca(I64, name="pers.iters")
    b.store(c64(0), P.counter)
    pre = b.block
    head = b.append_basic_block("pers.head")
    body = b.append_basic_block("pers.body")
    done = b.append_basic_block("pers.done")
    b.branch(head)
    b.position_at_end(head)
    vb = b.phi(I64, "pers.vb")
    vb.add_incoming(first_vb, pre)
    b.cbranch(b.icmp_unsigned("<", vb, total), body, done)
    b.position_at_end(body)
    P.vb = vb
    P.first = b.icmp_unsigned("==", vb, first_vb)
    L.bids = L.block_ids(vb)
    L.lower_ops(L.kir.body)
    L.barrier()  # the epilogue's shared memory is free for the next tile
    vb.add_incoming(b.add(vb, P.stride), b.block)
    b.branch(head)
    b.position_at_end(done)


def active(L: TileLowering, loop: ForOp) -> Persistent | None:
    P = getattr(L, "persistent", None)
    return P if P is not None and P.loop is loop and P.vb is not None else None


def trip_count(L: TileLowering, start: ir.Value, stop: ir.Value, step: ir.Value) -> ir.Value:
    """Iterations of `range(start, stop, step)` (step > 0), never negative."""
    b = L.b
    span = b.sub(stop, start)
    n = b.sdiv(b.add(span, b.sub(step, c64(1))), step)
    return b.select(b.icmp_signed(">", span, c64(0)), n, c64(0))


def prologue_guard(P: Persistent) -> ir.Value | None:
    """When this tile issues its own prologue: on the CTA's first tile only, unless `PREFETCH_NEXT` is off."""
    return P.first if PREFETCH_NEXT else None


def begin_loop(L: TileLowering, P: Persistent, start: ir.Value, stop: ir.Value, step: ir.Value) -> ir.Value:
    """Before the main loop: this tile's first global iteration `g0`; the running count moves past it."""
    b = L.b
    assert P.counter is not None
    g0 = b.load(P.counter)
    b.store(b.add(g0, trip_count(L, start, stop, step)), P.counter)
    return g0


def prefetch_next(L: TileLowering, pipe: Any, loop: ForOp, body_defs: dict[int, Op]) -> None:
    """After the main loop: thread 0 issues the next tile's prologue (its first `S - 2` stages)."""
    from safekernels.codegen.tile import mma
    from safekernels.codegen.tile.values import Scalar

    P = active(L, loop)
    assert P is not None and P.vb is not None and P.stride is not None and P.total is not None
    assert P.counter is not None
    if not PREFETCH_NEXT:
        return
    b = L.b
    L.barrier()  # every warpgroup is past its last wgmma: the stages are free
    nxt = b.add(P.vb, P.stride)
    has_next = b.icmp_unsigned("<", nxt, P.total)
    saved = L.bids
    L.bids = L.block_ids(nxt)
    defs = {**P.pre_defs, **body_defs}
    bounds = [mma.reeval(L, a, loop, c64(0), defs) for a in loop.args]
    assert all(isinstance(v, Scalar) for v in bounds)
    start, stop, step = (v.value for v in bounds)
    g_next = b.load(P.counter)
    for s in range(pipe.prefetch):
        k = b.add(start, b.mul(step, c64(s)))
        stage = b.urem(b.add(g_next, c64(s)), c64(pipe.stages))
        mma.issue_iteration(L, pipe, loop, k, stage, defs, stop=stop, when=has_next)
    L.bids = saved
