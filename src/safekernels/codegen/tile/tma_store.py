"""The GEMM epilogue through shared memory and the copy engine (a TMA store).

Taken by a top-level `Partition.store` after the kernel's TMA main loop (`codegen.tile.tma`) when the output is
an aligned rank-2 f16/bf16 tensor whose tile is the loop's accumulator shape and the stored value is still in
the warpgroup-MMA accumulator layout (the user's element-wise tail -- bias, ReLU, the cast -- runs on it in
registers, as written).  Instead of 4-byte stores from registers (8 rows of 16 bytes per warp instruction):

1. thread 0 waits until the previous tile's store has read its shared memory (`cp.async.bulk.wait_group.read
   0`), then a CTA barrier (every warpgroup is past its last wgmma);
2. each warpgroup writes its 64 rows into a free pipeline stage, in the 128-byte-swizzled layout the copy
   engine reads (64-column blocks of 64 lines x 128 bytes, chunk `c` of line `r` at `c ^ (r % 8)`: the eight
   rows one warp instruction writes land in eight different bank groups), then `fence.proxy.async`;
3. a CTA barrier, and thread 0 issues one `cp.async.bulk.tensor` store per 64x64 box and commits the group.

The store runs while the CTA goes on (a persistent CTA: into the next tile's main loop).  Free stages: the main
loop left every stage idle, except, in a persistent CTA, the `S - 2` stages the next tile's prologue is already
filling (`codegen.tile.persistent`), so warpgroup `w` takes stage `(g_next + S - 2 + w) % S`.  Thread 0 waits
for the store's reads before any copy it issues into a stage (`tma.issue`) and before the kernel ends; boxes
past the tensor's edge are clipped by the copy engine, so ragged M and N need no masking.  The output's tensor
map is one more by-value parameter (ABI `tmap:64:64` on the partition).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile import tma, wgmma
from safekernels.codegen.tile.ir import ForOp, Op
from safekernels.codegen.tile.layout import c64
from safekernels.codegen.tile.values import RegTile

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I32, I64 = so.I32, so.I64
#: False: every epilogue stores from registers (tests and bench/gemm_variants.py compare the two)
ENABLED = True
BOX = 64  # rows and columns of one store box (64 2-byte elements = the 128-byte swizzle span)


def plan(L: TileLowering) -> None:
    """Give each eligible top-level store after the TMA main loop a tensor map (`L.tma_stores`)."""
    from safekernels.codegen.tile import mma

    if not ENABLED or not L.tma or L.ws_loops:
        return
    seen_loop = False
    for op in L.kir.body:
        if isinstance(op, ForOp):
            found = mma.pipelined_matmul(L, op)
            seen_loop = seen_loop or (found is not None and id(found[1]) in L.tma)
            continue
        if not seen_loop or op.kind != "store":
            continue
        p = L.kir.params[op.attrs["param"]]
        shape = p.tile_shape
        if p.kind != "partition" or p.rank != 2 or not p.aligned or p.dtype.name not in ("f16", "bf16"):
            continue
        assert shape is not None
        if shape[0] != 64 * (L.T // 128) or shape[1] % BOX or L.T % 128:
            continue
        L.tma_stores[id(op)] = tma.TmaOperand(op, BOX, BOX, shape[1] // BOX)


def store(L: TileLowering, op: Op, t: Any, origin: list[ir.Value]) -> bool:
    """Lower `op` as a TMA store when it was planned and `t` is in the accumulator layout; False: not taken."""
    target = L.tma_stores.get(id(op))
    pipe = L.tma_pipe
    if target is None or pipe is None or L.loop_state or not isinstance(t, RegTile):
        return False
    bm, bn = t.type.shape
    wgs = L.T // 128
    if t.layout != wgmma.layout((bm, bn), L.T) or pipe.stages - pipe.prefetch < wgs:
        return False
    if BOX * bn * 2 > pipe.a_bytes + pipe.b_bytes:
        return False  # a warpgroup's rows must fit one stage
    b = L.b
    thread0 = b.icmp_unsigned("==", L.tid, c64(0))
    with b.if_then(thread0):
        wait_reads(L)
    L.barrier()
    P = L.persistent
    g_next = b.load(P.counter) if P is not None and P.counter is not None else c64(0)
    wg = b.udiv(L.tid, c64(128))
    stage = b.urem(b.add(b.add(g_next, c64(pipe.prefetch)), wg), c64(pipe.stages))
    buf = pipe.stage_base(L, stage)[0]
    p = L.kir.params[op.attrs["param"]]
    elem = so.storage_ty(p.dtype)
    vty = ir.VectorType(elem, 2)
    lay = t.layout
    for g in range(lay.groups):
        row, col = lay.coords(b, L.tid, g)
        lr = b.urem(row, c64(64))
        chunk = b.xor(b.udiv(b.urem(col, c64(64)), c64(8)), b.urem(lr, c64(8)))
        off = b.add(b.mul(b.udiv(col, c64(64)), c64(64 * 128)), b.mul(lr, c64(128)))
        off = b.add(b.add(off, b.mul(chunk, c64(16))), b.mul(b.urem(col, c64(8)), c64(2)))
        vec: ir.Value = ir.Constant(vty, None)
        for j in range(2):
            vec = b.insert_element(vec, t.vals[2 * g + j], ir.Constant(I32, j))
        ptr = b.bitcast(b.gep(buf, [off]), ir.PointerType(vty, addrspace=3))
        b.store(vec, ptr, align=4)
    wgmma.proxy_fence(L)
    L.barrier()
    with b.if_then(thread0):
        assert target.arg is not None
        tmap = b.ptrtoint(target.arg, I64)
        for w in range(wgs):
            src = pipe.stage_base(L, b.urem(b.add(g_next, c64(pipe.prefetch + w)), c64(pipe.stages)))[0]
            row = b.trunc(b.add(origin[0], c64(64 * w)), I32)
            for blk in range(target.blocks):
                col = b.trunc(b.add(origin[1], c64(blk * BOX)), I32)
                tma._asm(
                    L,
                    "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$1, $2}], [$3];",
                    "l,r,r,r,~{memory}",
                    [tmap, col, row, b.gep(src, [c64(blk * 64 * 128)])],
                )
        tma._asm(L, "cp.async.bulk.commit_group;", "~{memory}", [])
    L.tma_store_issued = True
    return True


def wait_reads(L: TileLowering) -> None:
    """This thread's TMA stores have read their shared memory (no-op when none is pending)."""
    tma._asm(L, "cp.async.bulk.wait_group.read 0;", "~{memory}", [])


def finish(L: TileLowering) -> None:
    """At the kernel's end: thread 0 waits for its stores' reads before the CTA's shared memory goes away."""
    if L.tma_store_issued:
        with L.b.if_then(L.b.icmp_unsigned("==", L.tid, c64(0))):
            wait_reads(L)
