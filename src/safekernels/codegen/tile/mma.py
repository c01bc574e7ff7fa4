"""`tile.matmul(a, b, acc)` on tensor cores: `mma.sync.m16n8k16` (f16/bf16 in, f32 accumulate).

Operands are staged in shared memory, row-major with an XOR swizzle of the 16-byte chunks
(`chunk ^ (row / rep) % 8`) so that the eight row addresses of every `ldmatrix` phase hit distinct banks.
A comes in with `ldmatrix.x4` (four 8x8 matrices = one 16x16 A fragment), B with `ldmatrix.x4.trans` (two
16x8 B fragments).  Each warp owns a `WM x WN` piece of the accumulator (`layout.Mma`).

Operands that are plain loads from an aligned f16/bf16 tensor are copied global -> shared with
`cp.async.cg` (16 bytes, zero-filled past the tensor's edge).  Inside a `range` loop whose body feeds such
loads to the matmul (the GEMM main loop), the copies are software-pipelined over `S` shared-memory stages:
the copies of iteration `k + S - 1` are in flight while the tensor cores work on iteration `k`.

On sm_90a such a loop's matmul runs on warpgroup MMA instead (`codegen.tile.wgmma`: its own operand layout,
prefetch distance `S - 2`); this module keeps the pipeline bookkeeping for both.

A B operand written `tile.transpose(t.load(...))` (`q @ k^T` in attention, the (N, K) weight of a linear
layer, fp8's K-major B) is never transposed: the load is copied as it is, (BN, BK) rows of K, and the
tensor cores read it K-major (`ldmatrix` without `.trans`; wgmma with `imm-trans-b = 0`).  The 8-bit floats
take only that path (wgmma reads fp8 K-major only) and only on sm_90a.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from llvmlite import ir

from safekernels.codegen.tile import scalar_ops as so
from safekernels.codegen.tile import target_rules, tf32_matmul, tma, warpspec, wgmma, wgmma_sync
from safekernels.codegen.tile.ir import ForOp, Op, Value
from safekernels.codegen.tile.layout import Mma, c64, mma_for
from safekernels.codegen.tile.target_rules import F8 as F8
from safekernels.codegen.tile.target_rules import esize as esize
from safekernels.codegen.tile.values import RegTile, Scalar
from safekernels.tile.ops import TileType

if TYPE_CHECKING:
    from safekernels.codegen.tile.lower import TileLowering

I32, I64 = so.I32, so.I64
SMEM_STAGE_BUDGET = 160 * 1024


def _sw(b: ir.IRBuilder, row: ir.Value, wc: int) -> ir.Value:
    rep = max(1, 8 // wc)
    return b.urem(b.udiv(row, c64(rep)), c64(min(wc, 8)))


def smem_offset(b: ir.IRBuilder, row: ir.Value, chunk: ir.Value, cols: int) -> ir.Value:
    """Byte offset of 16-byte chunk `chunk` of row `row` in a swizzled (rows, cols) 2-byte operand."""
    wc = cols // 8
    return b.add(b.mul(row, c64(cols * 2)), b.mul(b.xor(chunk, _sw(b, row, wc)), c64(16)))


def copyable_operand(L: TileLowering, load: Op) -> bool:
    """`load` reads whole 16-byte chunks of an aligned rank-2 f16/bf16/fp8 tensor (cp.async can stage it)."""
    return target_rules.copyable_operand(L.kir.params, load)


def find_transposed_operands(L: TileLowering) -> None:
    """Mark `tile.transpose(load)` values used only as a matmul's B: the load is staged as is (K-major).

    On sm_90a the load may also feed other matmuls directly (`target_rules.transposed_operands(shared=True)`):
    the synchronous wgmma path (`codegen.tile.wgmma_sync`) stages it once per iteration and reads the one tile
    K-major for the transpose and MN-major for the plain use.  A load that a GEMM main-loop pipeline would take
    is left unshared (its stages belong to that pipeline)."""
    found = target_rules.transposed_operands(L.defs, L.uses, L.kir.params, shared=L.hopper)
    shared = {id(src) for src in found.values() if src.result is not None and len(L.uses[src.result.id]) > 1}
    if shared:
        candidates = dict(L.deferred_candidates)
        for vid, src in found.items():
            assert src.result is not None
            candidates[vid] = candidates[src.result.id] = src
        for loop in _loops(L.kir.body):
            hit = target_rules.pipelined_matmul(candidates, loop)
            if hit is not None:
                shared -= {id(hit[1]), id(hit[2])}
        found = {
            vid: src
            for vid, src in found.items()
            if id(src) in shared or src.result is None or len(L.uses[src.result.id]) == 1
        }
    for vid, src in found.items():
        assert src.result is not None
        L.deferred_candidates[vid] = src
        L.deferred_candidates[src.result.id] = src
        L.transposed_operands.add(vid)
    if L.hopper and wgmma_sync.ENABLED:
        _find_mnmajor_a(L)


def _find_mnmajor_a(L: TileLowering) -> None:
    """sm_90a: mark `tile.transpose(load)` values read as a matmul's A MN-major (`codegen.tile.wgmma_operands`)
    when every other use of the load reads the same staged tile (a matmul operand as is, a K-major B) and no
    GEMM main-loop pipeline would take the load."""
    found = target_rules.mnmajor_a_operands(L.defs, L.uses, L.kir.params, L.T)
    for vid, src in found.items():
        assert src.result is not None
        ok = True
        for u in L.uses.get(src.result.id, []):
            if u.kind == "matmul":
                ok = ok and u.args[2] is not src.result and not target_rules.off_tensor_cores(u)
            elif u.kind == "transpose" and u.result is not None:
                ok = ok and (u.result.id in found or u.result.id in L.transposed_operands)
            else:
                ok = False
        b_v = L.uses[vid][0].args[1]
        if not ok or (b_v.id in L.transposed_operands and src.attrs["tile_shape"][0] % 64):
            continue  # a K-major B needs BK (the load's rows) a multiple of 64
        candidates = dict(L.deferred_candidates)
        candidates[vid] = candidates[src.result.id] = src
        if any(
            (hit := target_rules.pipelined_matmul(candidates, loop)) is not None and src in hit[1:]
            for loop in _loops(L.kir.body)
        ):
            continue
        L.deferred_candidates[vid] = src
        L.deferred_candidates[src.result.id] = src
        L.mnmajor_a.add(vid)


def _loops(ops: list[Op]) -> list[ForOp]:
    out: list[ForOp] = []
    for op in ops:
        if isinstance(op, ForOp):
            out += [op, *_loops(op.body)]
    return out


def kmajor_b(L: TileLowering, v: Value) -> bool:
    """Whether matmul operand B `v` is staged K-major ((BN, BK) rows) in shared memory."""
    return v.id in L.transposed_operands


def _layout(L: TileLowering, op: Op) -> Mma:
    from safekernels.codegen.tile.lower import LoweringError

    if id(op) in L.wgmma_ops or id(op) in L.wgmma_sync_ops:
        t = op.result.type if op.result is not None else None
        assert isinstance(t, TileType) and len(t.shape) == 2
        return wgmma.layout((t.shape[0], t.shape[1]), L.T)
    if tf32_matmul.takes(L, op):
        return tf32_matmul.layout(L, op)

    a_t, b_t = op.args[0].type, op.args[1].type
    assert isinstance(a_t, TileType) and isinstance(b_t, TileType)
    (bm, bk), (_, bn) = a_t.shape, b_t.shape
    if a_t.dtype.name in F8:  # the front end refuses these first (a target rule); IR built without it lands here
        form = target_rules.WARPGROUP_FORM
        raise LoweringError(f"tile.matmul on {a_t.dtype} runs on sm_90a warpgroup MMA only: {form}")
    if a_t.dtype.name not in ("f16", "bf16"):
        raise LoweringError(
            f"tile.matmul on the GPU takes f16 or bf16 inputs (tensor cores), got {a_t.dtype}; "
            "convert with .astype(f16)"
        )
    lay = mma_for((bm, bn), L.T // 32)
    if bk % 16 or bm % 16 or bn % 16:
        raise LoweringError(
            f"tile.matmul on tensor cores needs every dimension a multiple of 16, got {a_t.shape} @ {b_t.shape}"
        )
    if lay is None:
        raise LoweringError(
            f"tile.matmul: the ({bm}, {bn}) accumulator does not split over {L.T // 32} warps in pieces of "
            f"16x16 multiples; use fewer warps (@tile.kernel(num_warps=...)) or leave num_warps to the compiler"
        )
    return lay


def issue_copy(
    L: TileLowering, load: Op, origin: list[ir.Value], base: ir.Value, hopper: bool = False
) -> None:
    """cp.async the tile of `load` at element `origin` into the swizzled operand at `base`
    (`hopper`: the wgmma layout of `codegen.tile.wgmma`)."""
    rows, cols = load.attrs["tile_shape"]
    regs = L.params[load.attrs["param"]]
    assert regs.ptr is not None
    n0, n1 = regs.dims
    fn = so.declare(
        L.module,
        "llvm.nvvm.cp.async.cg.shared.global.16.s",
        ir.VoidType(),
        [ir.PointerType(so.I8, 3), ir.PointerType(so.I8, 1), I32],
    )
    # (an unpredicated fast path for tiles wholly inside the tensor measured 4% slower on the wgmma path)
    es = esize(L.kir.params[load.attrs["param"]].dtype)
    _copy_chunks(L, fn, regs.ptr, n0, n1, origin, base, rows, cols * es // 2, hopper, True, es)


def _copy_chunks(
    L: TileLowering,
    fn: ir.Function,
    ptr: ir.Value,
    n0: ir.Value,
    n1: ir.Value,
    origin: list[ir.Value],
    base: ir.Value,
    rows: int,
    cols: int,
    hopper: bool,
    masked: bool,
    es: int = 2,
) -> None:
    """`cols` counts 2-byte units (the swizzle works on bytes); `es` is the element size in global memory."""
    b = L.b
    wc = cols // 8
    total = rows * wc
    for i in range(-(-total // L.T)):
        q = b.add(c64(i * L.T), L.tid)
        row, ch = b.udiv(q, c64(wc)), b.urem(q, c64(wc))
        grow, gcol = b.add(origin[0], row), b.add(origin[1], b.mul(ch, c64(16 // es)))
        src_off = b.mul(b.add(b.mul(grow, n1), gcol), c64(es))
        size: ir.Value = ir.Constant(I32, 16)
        if masked:
            ok = b.and_(b.icmp_unsigned("<", grow, n0), b.icmp_unsigned("<", gcol, n1))
            src_off = b.select(ok, src_off, c64(0))
            size = b.select(ok, ir.Constant(I32, 16), ir.Constant(I32, 0))
        src = b.gep(ptr, [src_off])
        off = wgmma.smem_offset(b, row, ch, rows) if hopper else smem_offset(b, row, ch, cols)
        dst = b.gep(base, [off])
        if total % L.T:
            with b.if_then(b.icmp_unsigned("<", q, c64(total))):
                b.call(fn, [dst, src, size])
        else:
            b.call(fn, [dst, src, size])


def commit(L: TileLowering) -> None:
    L.b.call(so.declare(L.module, "llvm.nvvm.cp.async.commit.group", ir.VoidType(), []), [])


def wait(L: TileLowering, n: int) -> None:
    L.b.call(
        so.declare(L.module, "llvm.nvvm.cp.async.wait.group", ir.VoidType(), [I32]), [ir.Constant(I32, n)]
    )


def stage_from_registers(L: TileLowering, v: Value, base: ir.Value, dt: Any) -> None:
    """The slow path: any operand tile -> registers -> swizzled shared memory, element by element."""
    b = L.b
    t = v.type
    assert isinstance(t, TileType)
    cols = t.shape[1]
    reg = L.materialize(L.val(v), L.blocked(t.shape), TileType(t.shape, dt))
    lay = reg.layout
    elem = so.storage_ty(dt)
    for g in range(lay.groups):
        coords = lay.coords(b, L.tid, g)
        active = lay.active(b, L.tid, g)
        for j in range(lay.width):
            col = b.add(coords[1], c64(j))
            off = b.add(
                smem_offset(b, coords[0], b.udiv(col, c64(8)), cols), b.mul(b.urem(col, c64(8)), c64(2))
            )
            ptr = b.bitcast(b.gep(base, [off]), ir.PointerType(elem, 3))
            if active is None:
                b.store(reg.vals[g * lay.width + j], ptr)
            else:
                with b.if_then(active):
                    b.store(reg.vals[g * lay.width + j], ptr)


def stage_operand(L: TileLowering, v: Value, dt: Any) -> ir.Value:
    """Stage one operand in shared memory (a transposed B operand as its load's (BN, BK) rows)."""
    t = v.type
    assert isinstance(t, TileType)
    base = L.alloc(t.shape[0] * t.shape[1] * 2, 128)
    load = L.deferred.get(v.id)
    L.barrier()
    if load is not None:
        issue_copy(L, load, L.origin(load), base)
        commit(L)
        wait(L, 0)
    else:
        stage_from_registers(L, v, base, dt)
    L.barrier()
    return base


def compute(
    L: TileLowering,
    lay: Mma,
    a_base: ir.Value,
    b_base: ir.Value,
    bk: int,
    bn: int,
    dt: Any,
    acc: list[ir.Value],
    b_kmajor: bool = False,
) -> list[ir.Value]:
    """`mma.sync` over one staged (A, B) pair; `b_kmajor`: B is stored (BN, BK) (read without `.trans`)."""
    b = L.b
    warp = b.udiv(L.tid, c64(32))
    lane = b.urem(L.tid, c64(32))
    wm = b.udiv(warp, c64(lay.warps_n))
    wn = b.urem(warp, c64(lay.warps_n))
    sel_row = b.add(b.urem(lane, c64(8)), b.mul(b.urem(b.udiv(lane, c64(8)), c64(2)), c64(8)))
    sel_chunk = b.udiv(lane, c64(16))
    i4 = ir.LiteralStructType([I32] * 4)
    ldm = so.declare(
        L.module, "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3", i4, [ir.PointerType(so.I8, 3)]
    )
    ldmt = so.declare(
        L.module, "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3", i4, [ir.PointerType(so.I8, 3)]
    )
    f4 = ir.LiteralStructType([so.F32] * 4)
    if dt.name == "f16":
        h2 = ir.VectorType(so.F16, 2)
        mma = so.declare(L.module, "llvm.nvvm.mma.m16n8k16.row.col.f32.f32", f4, [h2] * 6 + [so.F32] * 4)
    else:
        h2 = I32
        mma = so.declare(L.module, "llvm.nvvm.mma.m16n8k16.row.col.bf16", f4, [I32] * 6 + [so.F32] * 4)
    out = list(acc)
    a_row0 = b.add(b.mul(wm, c64(lay.wm)), sel_row)
    b_col_chunk0 = b.add(b.udiv(b.mul(wn, c64(lay.wn)), c64(8)), sel_chunk)
    for kk in range(bk // 16):
        a_frags = []
        for mi in range(lay.mi):
            row = b.add(a_row0, c64(mi * 16))
            ch = b.add(c64(kk * 2), sel_chunk)
            r = b.call(ldm, [b.gep(a_base, [smem_offset(b, row, ch, bk)])])
            a_frags.append([_as(b, b.extract_value(r, i), h2) for i in range(4)])
        b_frags: list[list[ir.Value]] = []
        for np_ in range(lay.ni // 2):
            if b_kmajor:  # matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15)
                nrow = b.add(b.mul(wn, c64(lay.wn)), c64(np_ * 16))
                nrow = b.add(nrow, b.add(b.urem(lane, c64(8)), b.mul(b.udiv(lane, c64(16)), c64(8))))
                ch = b.add(c64(kk * 2), b.urem(b.udiv(lane, c64(8)), c64(2)))
                r = b.call(ldm, [b.gep(b_base, [smem_offset(b, nrow, ch, bk)])])
            else:
                krow = b.add(c64(kk * 16), sel_row)
                ch = b.add(b_col_chunk0, c64(np_ * 2))
                r = b.call(ldmt, [b.gep(b_base, [smem_offset(b, krow, ch, bn)])])
            regs = [_as(b, b.extract_value(r, i), h2) for i in range(4)]
            b_frags.append(regs[0:2])
            b_frags.append(regs[2:4])
        for mi in range(lay.mi):
            for ni in range(lay.ni):
                s = (mi * lay.ni + ni) * 4
                res = b.call(mma, [*a_frags[mi], *b_frags[ni], *out[s : s + 4]])
                for i in range(4):
                    out[s + i] = b.extract_value(res, i)
    return out


def _as(b: ir.IRBuilder, v: ir.Value, ty: ir.Type) -> ir.Value:
    return v if v.type == ty else b.bitcast(v, ty)


@dataclass
class Pipeline:
    """Multi-stage cp.async staging of one matmul's operands across the iterations of a `for`."""

    matmul: Op
    loads: tuple[Op, Op]
    stages: int
    a_bytes: int
    b_bytes: int
    hopper: bool = False
    base: ir.Value | None = None
    tma: bool = False  # operands by the copy engine (codegen.tile.tma), completing on `bars`
    bars: ir.Value | None = None
    stop: ir.Value | None = None
    ws: bool = False  # a producer warpgroup issues the copies (codegen.tile.warpspec), released on `empty`
    empty: ir.Value | None = None
    leader: int = 0  # the thread that issues the copies

    @property
    def prefetch(self) -> int:
        """How many iterations ahead the copies run (wgmma keeps one more stage busy: its async batch); none
        in the consumers' loop when a producer warpgroup issues them."""
        if self.ws:
            return 0
        return self.stages - 2 if self.hopper else self.stages - 1

    def stage_base(self, L: TileLowering, stage: ir.Value) -> tuple[ir.Value, ir.Value]:
        b = L.b
        assert self.base is not None
        off = b.mul(stage, c64(self.a_bytes + self.b_bytes))
        a = b.gep(self.base, [off])
        return a, b.gep(a, [c64(self.a_bytes)])


def pipelined_matmul(L: TileLowering, loop: ForOp) -> tuple[Op, Op, Op] | None:
    """(matmul, A load, B load) when the loop's matmul reads two deferred loads made inside the loop body
    and accumulates into a loop-carried tile."""
    return target_rules.pipelined_matmul(L.deferred_candidates, loop)


def plan_pipeline(L: TileLowering, loop: ForOp) -> Pipeline | None:
    """A pipeline for the loop's matmul when both operands are deferred loads made inside the loop body."""
    found = pipelined_matmul(L, loop)
    if found is None:
        return None
    op, la, lb = found
    ta, tb = op.args[0].type, op.args[1].type
    assert isinstance(ta, TileType) and isinstance(tb, TileType)
    es = esize(ta.dtype)
    a_bytes = ta.shape[0] * ta.shape[1] * es
    b_bytes = tb.shape[0] * tb.shape[1] * es
    if id(op) in L.wgmma_ops:
        stages = wgmma.stages_for(a_bytes + b_bytes)
        use_tma = tma.uses_tma(L, (la, lb))
        ws = use_tma and id(loop) in L.ws_loops
        return Pipeline(op, (la, lb), stages, a_bytes, b_bytes, hopper=True, tma=use_tma, ws=ws)
    stages = max(2, min(4, SMEM_STAGE_BUDGET // (a_bytes + b_bytes)))
    return Pipeline(op, (la, lb), stages, a_bytes, b_bytes)


def reeval(L: TileLowering, v: Value, loop: ForOp, k: ir.Value, defs: dict[int, Op]) -> Any:
    """Value `v` of the loop body recomputed for loop index `k` (index arithmetic only)."""
    if v is loop.var:
        return Scalar(k, None)
    op = defs.get(v.id)
    if op is None:
        return L.val(v)
    saved = {a.id: L.vals.get(a.id) for a in op.args}
    for a in op.args:
        L.vals[a.id] = reeval(L, a, loop, k, defs)
    result = getattr(L, f"op_{op.kind}")(op)
    for key, old in saved.items():
        if old is None:
            L.vals.pop(key, None)
        else:
            L.vals[key] = old
    return result


def start_pipeline(L: TileLowering, pipe: Pipeline, stop: ir.Value, when: ir.Value | None = None) -> None:
    """After the stages are allocated, before the CTA barrier and the prologue: the copy engine's barriers
    (initialized only `when`, if given: a persistent CTA's first tile)."""
    if pipe.tma:
        pipe.bars = tma.init_barriers(L, pipe.stages, when=when)
        pipe.stop = stop
    if pipe.ws:
        pipe.empty = tma.init_barriers(L, pipe.stages, L.T // 128)
        pipe.leader = L.T


def fork_producer(
    L: TileLowering, pipe: Pipeline, loop: ForOp, start: ir.Value, stop: ir.Value, step: ir.Value, defs: dict[int, Op]
) -> None:
    """After the CTA barrier that follows `start_pipeline`: split off the producer warpgroup (warpspec)."""
    if pipe.ws:
        warpspec.fork(L, pipe, loop, start, stop, step, defs)


def issue_iteration(
    L: TileLowering,
    pipe: Pipeline,
    loop: ForOp,
    k: ir.Value,
    stage: ir.Value,
    defs: dict[int, Op],
    *,
    stop: ir.Value | None = None,
    when: ir.Value | None = None,
) -> None:
    """Issue the copies of loop index `k` into `stage`.  TMA: only while `k < stop` (default: the loop's own
    stop) and `when` holds."""
    b = L.b
    a_base, b_base = pipe.stage_base(L, stage)
    origins = []
    for load in pipe.loads:
        origin = []
        for v, s in zip(load.args, load.attrs["tile_shape"], strict=True):
            sv = reeval(L, v, loop, k, defs)
            origin.append(b.mul(sv.value, c64(s)))
        origins.append(origin)
    if pipe.tma:
        assert pipe.bars is not None and pipe.stop is not None
        live = b.icmp_signed("<", k, pipe.stop if stop is None else stop)
        if when is not None:
            live = b.and_(live, when)
        tma.issue(L, pipe.loads, origins, (a_base, b_base), pipe.bars, stage, live, pipe.leader)
        return
    for load, origin, base in zip(pipe.loads, origins, (a_base, b_base), strict=True):
        issue_copy(L, load, origin, base, pipe.hopper)


def lower_matmul(L: TileLowering, op: Op) -> RegTile:
    lay = _layout(L, op)
    a_v, b_v, acc_v = op.args
    acc_t = acc_v.type
    a_t, b_t = a_v.type, b_v.type
    assert isinstance(acc_t, TileType) and isinstance(a_t, TileType) and isinstance(b_t, TileType)
    acc = L.materialize(L.val(acc_v), lay, acc_t)
    if id(op) in L.wgmma_sync_ops:
        return RegTile(acc_t, lay, wgmma_sync.lower(L, op, acc.vals))
    pipe = L.active_pipes.get(id(op))
    if pipe is not None and pipe.hopper:
        # refill first, then the batch (issuing the batch before the refill copies measured 4% slower)
        a_base, b_base = pipe_step(L, pipe)
        shape = (a_t.shape[0], a_t.shape[1], b_t.shape[1])
        vals = wgmma.issue(L, a_base, b_base, shape, a_t.dtype.name, acc.vals, kmajor_b(L, b_v))
        wgmma.wait(L, 1)
        if pipe.ws:
            warpspec.release(L, pipe)
        return RegTile(acc_t, lay, vals)
    if pipe is not None:
        a_base, b_base = pipe_step(L, pipe)
    else:
        a_base = stage_operand(L, a_v, a_t.dtype)
        b_base = stage_operand(L, b_v, a_t.dtype)
    kmajor = kmajor_b(L, b_v) and (pipe is not None or b_v.id in L.deferred)
    vals = compute(L, lay, a_base, b_base, a_t.shape[1], b_t.shape[1], a_t.dtype, acc.vals, kmajor)
    return RegTile(acc_t, lay, vals)


def pipe_step(L: TileLowering, pipe: Pipeline) -> tuple[ir.Value, ir.Value]:
    """In the loop body: wait for this iteration's stage, refill the oldest stage, hand back this one."""
    bases = pipe_wait(L, pipe)
    pipe_refill(L, pipe)
    return bases


def pipe_wait(L: TileLowering, pipe: Pipeline) -> tuple[ir.Value, ir.Value]:
    """Wait until this iteration's stage has landed (for every thread) and hand back its operand bases."""
    it = L.loop_state[-1][1]
    if pipe.tma:
        assert pipe.bars is not None
        tma.wait(L, pipe.bars, pipe.stages, it)
    else:
        wait(L, pipe.prefetch - 1)
        if pipe.hopper:
            wgmma.proxy_fence(L)
    if not pipe.ws:  # a producer warpgroup refills only stages the consumers released
        L.barrier()
    return pipe.stage_base(L, L.b.urem(it, c64(pipe.stages)))


def pipe_refill(L: TileLowering, pipe: Pipeline) -> None:
    """Issue the copies of iteration `it + prefetch` into the stage nobody reads any more."""
    if pipe.ws:
        return
    b = L.b
    loop, it, k, step, defs = L.loop_state[-1]
    d = pipe.prefetch
    nxt = b.add(k, b.mul(step, c64(d)))
    issue_iteration(L, pipe, loop, nxt, b.urem(b.add(it, c64(d)), c64(pipe.stages)), defs)
    commit(L)


_ = (Value,)
