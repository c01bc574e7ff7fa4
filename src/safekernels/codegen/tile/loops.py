"""`for k in range(start, stop, step)` in tile kernels: an LLVM loop whose header carries the loop index, an
iteration counter and every loop-carried variable (a tile carried in registers has one phi per slot).

A carried tile keeps one layout for the whole loop: the matmul accumulator layout when the loop's update is a
`tile.matmul`, the `Blocked` layout otherwise.  When the body's matmul reads its operands straight from
aligned f16/bf16 loads, `codegen.tile.mma` pipelines the copies: a prologue fills `S - 1` stages before the
loop (`S - 2` on the wgmma path), and each iteration refills one stage while the tensor cores consume another.
On the wgmma path the loop's exit waits for the last asynchronous MMA batch before anything reads the
accumulators.  A loop marked by `codegen.tile.loop_split` becomes two loops, its mask-free iterations first,
with the carried values and the iteration count passed from one to the other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from llvmlite import ir

from safekernels.codegen.tile import fma_matmul, mma, persistent, rowreduce, scalar_ops, wgmma, wgmma_sync
from safekernels.codegen.tile.ir import ForOp, Op
from safekernels.codegen.tile.layout import Layout, c64
from safekernels.codegen.tile.values import RegTile, Scalar
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering


def _body_defs(ops: list[Op], out: dict[int, Op]) -> dict[int, Op]:
    for op in ops:
        if op.result is not None:
            out[op.result.id] = op
        if isinstance(op, ForOp):
            _body_defs(op.body, out)
    return out


def lower_for(L: TileLowering, op: ForOp) -> None:
    from safekernels.codegen.tile.lower import LoweringError

    b = L.b
    start, stop, step = (L.val(a) for a in op.args)
    assert isinstance(start, Scalar) and isinstance(stop, Scalar) and isinstance(step, Scalar)
    if step.const is not None and step.const == 0:
        raise LoweringError("`range` step must not be zero", op.line)  # the front end refuses it first

    if step.const is None:  # a run-time step of 0 traps (Python's range() raises; the CPU executor traps)
        scalar_ops.trap_if(b, b.icmp_signed("==", step.value, c64(0)))

    def in_range(k: ir.Value) -> ir.Value:
        """Python's `range` test: `k < stop` for a positive step, `k > stop` for a negative one."""
        if step.const is not None:
            return b.icmp_signed("<" if step.const > 0 else ">", k, stop.value)
        up = b.icmp_signed(">", step.value, c64(0))
        return b.select(up, b.icmp_signed("<", k, stop.value), b.icmp_signed(">", k, stop.value))

    layouts: list[Layout | None] = []
    inits: list[list[ir.Value]] = []
    for c in op.carried:
        t = c.init.type
        if isinstance(t, TileType):
            upd = L.defs.get(c.update.id) if c.update is not None else None
            lay: Layout
            rows = rowreduce.carried_layout(L, op, t)
            if upd is not None and upd.kind == "matmul" and not fma_matmul.takes(L, upd):
                lay = mma._layout(L, upd)
            elif rows is not None:  # the online softmax's running max / denominator stay in registers
                lay = rows
            else:
                lay = L.blocked(t.shape)
            layouts.append(lay)
            inits.append(L.materialize(L.val(c.init), lay, t).vals)
        else:
            layouts.append(None)
            s = L.val(c.init)
            assert isinstance(s, Scalar)
            inits.append([s.value])
    defs = _body_defs(op.body, {})
    pipe = mma.plan_pipeline(L, op)
    pers = persistent.active(L, op)  # a persistent CTA's main loop: stages and barrier phases carry over
    it0: ir.Value = c64(0)
    if pipe is not None:
        nbytes = pipe.stages * (pipe.a_bytes + pipe.b_bytes)
        if pipe.hopper:
            pipe.base = wgmma.align_base(L, L.alloc(nbytes + wgmma.ALIGN, 128))
        else:
            pipe.base = L.alloc(nbytes, 128)
        first = pers.first if pers is not None else None
        mma.start_pipeline(L, pipe, stop.value, when=first)  # the copy engine's mbarriers (TMA operands)
        L.barrier()
        mma.fork_producer(L, pipe, op, start.value, stop.value, step.value, defs)  # warp-specialized loops
        if pers is not None:
            it0 = persistent.begin_loop(L, pers, start.value, stop.value, step.value)
        guard = persistent.prologue_guard(pers) if pers is not None else None  # later tiles: the previous tile
        for stage in range(pipe.prefetch):
            k_s = b.add(start.value, b.mul(step.value, c64(stage)))
            slot = c64(stage) if pers is None else b.urem(b.add(it0, c64(stage)), c64(pipe.stages))
            mma.issue_iteration(L, pipe, op, k_s, slot, defs, when=guard)
            mma.commit(L)
        L.active_pipes[id(pipe.matmul)] = pipe
        if pipe.tma and not pipe.ws:
            L.tma_pipe = pipe  # its stages stage the epilogue's TMA store (codegen.tile.tma_store)
    # attention-style matmuls (codegen.tile.wgmma_sync): K/V double-buffered
    wops = wgmma_sync.start_loop(L, op, start.value, stop.value, step.value, defs)
    # The wgmma path is emitted already rotated (guard, body, test at the latch) so that the last batch's
    # `wgmma.wait_group 0` sits on the loop's own exit edge: ptxas serializes every wgmma of the kernel when
    # the wait lands in a block that the zero-trip path shares with other instructions before it.
    rotated = pipe is not None and pipe.hopper
    # a loop whose mask is all-true on a prefix (codegen.tile.loop_split): that prefix from the mask-free body
    split = op.attrs.get("split") if pipe is None and pers is None and step.const == 1 else None
    if not rotated:
        k_out: ir.Value = start.value
        it_out: ir.Value = it0
        exits: list[list[ir.Value]] = inits
        if split is not None:
            point = L.val(split.point)
            assert isinstance(point, Scalar)
            mid = b.select(b.icmp_signed(">", point.value, stop.value), stop.value, point.value)
            top = L.smem_top
            exits, k_out, it_out = _emit_loop(
                L, op, wops, split.free_body, (k_out, it_out, exits), lambda k: b.icmp_signed("<", k, mid), layouts
            )
            top_free, L.smem_top = L.smem_top, top
            if top_free > top:  # the second body's scratch shared memory is the first's, once every thread is out
                L.barrier()
        exits, _, _ = _emit_loop(L, op, wops, op.body, (k_out, it_out, exits), in_range, layouts)
        if split is not None:
            L.smem_top = max(L.smem_top, top_free)
    else:
        pre = b.block
        header = b.append_basic_block("for.head")
        body = b.append_basic_block("for.body")
        exit_bb = b.append_basic_block("for.exit")
        zero_bb = b.append_basic_block("for.zero")
        done_bb = b.append_basic_block("for.done")
        b.cbranch(in_range(start.value), header, zero_bb)
        b.position_at_end(header)
        k = b.phi(c64(0).type, "k")
        it = b.phi(c64(0).type, "it")
        k.add_incoming(start.value, pre)
        it.add_incoming(it0, pre)
        phis = _phis(L, inits, pre)
        b.branch(body)
        b.position_at_end(body)
        updates = _lower_body(L, op, wops, op.body, k, it, phis, layouts)
        latch = b.block
        for row, vals in zip(phis, updates, strict=True):
            for p, v in zip(row, vals, strict=True):
                p.add_incoming(v, latch)
        k_next = b.add(k, step.value)
        k.add_incoming(k_next, latch)
        it.add_incoming(b.add(it, c64(1)), latch)
        b.cbranch(in_range(k_next), header, done_bb)
        b.position_at_end(done_bb)
        wgmma.wait(L, 0)
        b.branch(exit_bb)
        b.position_at_end(zero_bb)
        b.branch(exit_bb)
        b.position_at_end(exit_bb)
        exits = []
        for init_vals, upd_vals in zip(inits, updates, strict=True):
            merged: list[ir.Value] = []
            for iv, uv in zip(init_vals, upd_vals, strict=True):
                p = b.phi(iv.type)
                p.add_incoming(uv, done_bb)
                p.add_incoming(iv, zero_bb)
                merged.append(p)
            exits.append(merged)
    if pipe is not None:
        mma.wait(L, 0)
        L.active_pipes.pop(id(pipe.matmul), None)
        if pers is not None:  # the next tile's first stages load while this tile's epilogue runs
            persistent.prefetch_next(L, pipe, op, defs)
    wgmma_sync.land_exit(L, wops, op, exits)  # a matmul in flight across the back edge (wgmma_sync.CARRY)
    wgmma_sync.end_loop(L, wops)
    if pipe is not None and pipe.hopper:
        for c, row_vals in zip(op.carried, exits, strict=True):
            if c.update is not None and L.defs.get(c.update.id) is pipe.matmul:
                row_vals[:] = wgmma.pin(L, row_vals)
    for c, lay_c, row in zip(op.carried, layouts, exits, strict=True):
        assert c.out is not None
        if lay_c is None:
            st = c.init.type
            L.vals[c.out.id] = Scalar(row[0], getattr(st, "dtype", None) and st.dtype.name)  # type: ignore[union-attr]
        else:
            assert isinstance(c.init.type, TileType)
            L.vals[c.out.id] = RegTile(c.init.type, lay_c, list(row))


def _phis(L: TileLowering, inits: list[list[ir.Value]], pre: ir.Block) -> list[list[ir.PhiInstr]]:
    phis: list[list[ir.PhiInstr]] = []
    for vals in inits:
        row = []
        for v in vals:
            p = L.b.phi(v.type)
            p.add_incoming(v, pre)
            row.append(p)
        phis.append(row)
    return phis


def _lower_body(
    L: TileLowering,
    op: ForOp,
    wops: wgmma_sync.LoopOperands | None,
    body_ops: list[Op],
    k: ir.Value,
    it: ir.Value,
    phis: list[list[ir.PhiInstr]],
    layouts: list[Layout | None],
) -> list[list[ir.Value]]:
    """Bind the loop variable and the carried values, lower `body_ops` (the body, or its mask-free copy) and
    return the carried values' updates in their loop layouts."""
    L.vals[op.var.id] = Scalar(k, None)  # type: ignore[union-attr]
    for c, lay_c, row in zip(op.carried, layouts, phis, strict=True):
        if lay_c is None:
            st = c.init.type
            L.vals[c.phi.id] = Scalar(row[0], getattr(st, "dtype", None) and st.dtype.name)  # type: ignore[union-attr]
        else:
            assert isinstance(c.init.type, TileType)
            L.vals[c.phi.id] = RegTile(c.init.type, lay_c, list(row))
    L.loop_state.append((op, it, k, L.val(op.args[2]).value, _body_defs(op.body, {})))  # type: ignore[union-attr]
    L.wg_loops.append(wops)
    if wops is not None:
        wops.stepped = False  # each lowered copy of the body waits for its iteration's buffers
        wops.pending = wops.carry is not None  # and lands the previous iteration's carried matmul
    L.lower_ops(body_ops)
    wgmma_sync.finish_iteration(L, wops)  # deferred wgmma (a pipelined next-iteration matmul) land here
    L.wg_loops.pop()
    L.loop_state.pop()
    updates: list[list[ir.Value]] = []
    for c, lay_u in zip(op.carried, layouts, strict=True):
        assert c.update is not None
        u = L.val(c.update)
        if lay_u is None:
            assert isinstance(u, Scalar)
            updates.append([u.value])
        else:
            assert isinstance(c.init.type, TileType)
            updates.append(L.materialize(u, lay_u, c.init.type).vals)
    return updates


def _emit_loop(
    L: TileLowering,
    op: ForOp,
    wops: wgmma_sync.LoopOperands | None,
    body_ops: list[Op],
    entry: tuple[ir.Value, ir.Value, list[list[ir.Value]]],
    in_range: Callable[[ir.Value], ir.Value],
    layouts: list[Layout | None],
) -> tuple[list[list[ir.Value]], ir.Value, ir.Value]:
    """One loop (test at the header) over `body_ops` from `entry` = (index, iteration count, carried values);
    returns the carried values, the index and the iteration count at its exit (where the next loop starts)."""
    b = L.b
    k0, it0, inits = entry
    pre = b.block
    header = b.append_basic_block("for.head")
    body = b.append_basic_block("for.body")
    exit_bb = b.append_basic_block("for.exit")
    b.branch(header)
    b.position_at_end(header)
    k = b.phi(c64(0).type, "k")
    it = b.phi(c64(0).type, "it")
    k.add_incoming(k0, pre)
    it.add_incoming(it0, pre)
    phis = _phis(L, inits, pre)
    b.cbranch(in_range(k), body, exit_bb)
    b.position_at_end(body)
    updates = _lower_body(L, op, wops, body_ops, k, it, phis, layouts)
    latch = b.block
    for row, vals in zip(phis, updates, strict=True):
        for p, v in zip(row, vals, strict=True):
            p.add_incoming(v, latch)
    step = L.val(op.args[2])
    assert isinstance(step, Scalar)
    k.add_incoming(b.add(k, step.value), latch)
    it.add_incoming(b.add(it, c64(1)), latch)
    b.branch(header)
    b.position_at_end(exit_bb)
    return [list(row) for row in phis], k, it
