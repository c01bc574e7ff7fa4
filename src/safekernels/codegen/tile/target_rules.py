"""Target rules: what a GPU target allows beyond the op table's typing, checked by the tile front end.

Some programs type-check but only some GPUs can run them.  These rules are part of the front end
(`codegen.tile.frontend` applies them to every kernel it builds), not of one back end, so both executors refuse
alike: the GPU compiler checks the arch it compiles for; the CPU executor checks the reference target `sm_90a`
(what a launch on a compute-capability 9.0 GPU compiles for, the most capable target this compiler has).  So a
kernel the CPU executor runs compiles for sm_90a, and a kernel it refuses is refused on every GPU, with the
same code (SK004) at the same `file:line:col`.  Older targets refuse more, each naming the target:

    rule                                                    targets           located at
    fp8 tensors and tiles need `cvt .e4m3x2/.e5m2x2`        sm_89 and newer   the first fp8 parameter or op
    fp8 `tile.matmul` is a warpgroup GEMM main loop         sm_90a only       the matmul call
      (`WARPGROUP_FORM`: wgmma `...k32.e4m3` reads both operands K-major from shared memory)

The module is pure Python (the CPU executor imports it, never llvmlite).  The lowering takes its operand
analysis from here (`mma_operand`, `copyable_operand`, `transposed_operands`, `pipelined_matmul`) and its
warpgroup shapes (`shape_ok`, `warps_for`, `stages_for`), so the rule and the code generator cannot drift.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from safekernels.codegen.tile.ir import ForOp, Op, ParamInfo, TileKernelIR
from safekernels.tile.ops import TileType

#: The target the CPU executor checks: every kernel it runs compiles for it.
REFERENCE_ARCH = "sm_90a"
F8 = ("f8e4m3", "f8e5m2")

# -- warpgroup MMA shapes (codegen.tile.wgmma) ----------------------------------------------------------------
SMEM_BUDGET = 200 * 1024
MAX_STAGES = 4
MAX_N = 256


def shape_ok(bm: int, bn: int, bk: int, threads: int) -> bool:
    """Whether an (BM, BK) @ (BK, BN) matmul fits the warpgroup path with `threads` threads per CTA (`bk` in
    2-byte units)."""
    return threads % 128 == 0 and bm == 64 * (threads // 128) and bk % 64 == 0 and bn % 64 == 0 and bn <= MAX_N


def warps_for(bm: int, bn: int) -> int | None:
    """The warps a Hopper matmul CTA with a (BM, BN) accumulator gets (None: not a warpgroup shape)."""
    if bm in (64, 128) and bn % 64 == 0 and bn <= MAX_N:
        return 4 * (bm // 64)
    return None


def stages_for(stage_bytes: int) -> int:
    return min(MAX_STAGES, SMEM_BUDGET // stage_bytes)


# -- which matmul operands can be staged by copies (codegen.tile.mma) ----------------------------------------


def esize(dt: Any) -> int:
    """Bytes per element of a matmul operand (2: f16/bf16, 1: fp8)."""
    return 1 if dt.name in F8 else 2


def copyable_operand(params: list[ParamInfo], load: Op) -> bool:
    """`load` reads whole 16-byte chunks of an aligned rank-2 f16/bf16/fp8 tensor (cp.async can stage it)."""
    p = params[load.attrs["param"]]
    if p.dtype.name not in ("f16", "bf16", *F8) or not p.aligned or p.rank != 2:
        return False
    return bool(load.attrs["tile_shape"][1] * esize(p.dtype) % 16 == 0)


def index_ops(ops: list[Op], defs: dict[int, Op], uses: dict[int, list[Op]]) -> None:
    """Fill `defs` (value id -> its op) and `uses` (value id -> the ops reading it, loops for carried updates)."""
    for op in ops:
        if op.result is not None:
            defs[op.result.id] = op
        for a in op.args:
            uses.setdefault(a.id, []).append(op)
        if isinstance(op, ForOp):
            index_ops(op.body, defs, uses)
            for c in op.carried:
                assert c.update is not None
                uses.setdefault(c.update.id, []).append(op)


def off_tensor_cores(matmul: Op) -> bool:
    """An f16/bf16 matmul with a dimension not a multiple of 16, or one `on_fma_units` marked: the tensor cores
    cannot tile it, so it runs on the FMA units (`codegen.tile.fma_matmul`) with its operands read like any
    tile."""
    a_t, b_t = matmul.args[0].type, matmul.args[1].type
    if not isinstance(a_t, TileType) or not isinstance(b_t, TileType) or a_t.dtype.name not in ("f16", "bf16"):
        return False
    return bool(matmul.attrs.get("fma_units")) or any(d % 16 for d in (*a_t.shape, b_t.shape[1]))


def accumulator_splits(shape: tuple[int, int], warps: int) -> bool:
    """Whether `warps` warps split a (BM, BN) accumulator into warp tiles of 16 x 16 multiples (`wm * wn ==
    warps`, `wm` a power of two), the condition of `codegen.tile.layout.mma_for`."""
    bm, bn = shape
    wm = 1
    while wm <= warps:
        wn = warps // wm
        if wm * wn == warps and bm % (16 * wm) == 0 and bn % (16 * wn) == 0:
            return True
        wm *= 2
    return False


def on_fma_units(kir: TileKernelIR, num_warps: int | None) -> None:
    """Mark each f16/bf16 matmul whose accumulator the kernel's explicit `num_warps=` cannot split in 16 x 16
    pieces (a (16, 16) tile on 8 warps) to run on the FMA units, with the same values, as a matmul whose shape
    the tensor cores cannot tile does: the GPU runs what the CPU executor runs.  With the compiler's choice of
    warps (None) it picks a count that splits."""
    if num_warps is None:
        return
    for op in _walk(kir.body):
        if op.kind != "matmul" or off_tensor_cores(op):
            continue
        a_t, b_t = op.args[0].type, op.args[1].type
        if not isinstance(a_t, TileType) or not isinstance(b_t, TileType) or a_t.dtype.name not in ("f16", "bf16"):
            continue
        if not accumulator_splits((a_t.shape[0], b_t.shape[1]), num_warps):
            op.attrs["fma_units"] = True


def mma_operand(uses: dict[int, list[Op]], params: list[ParamInfo], load: Op) -> bool:
    """A load read only as matmul operands A or B, from a tensor cp.async can stage."""
    assert load.result is not None
    users = uses.get(load.result.id, [])
    if not users or any(u.kind != "matmul" or u.args[2] is load.result or off_tensor_cores(u) for u in users):
        return False
    return copyable_operand(params, load)


def _kmajor_b_use(uses: dict[int, list[Op]], transpose: Op) -> bool:
    """`transpose` is read once, as a matmul's B (and not also as its A)."""
    assert transpose.result is not None
    users = uses.get(transpose.result.id, [])
    if len(users) != 1 or users[0].kind != "matmul" or users[0].args[1] is not transpose.result:
        return False
    if off_tensor_cores(users[0]):
        return False
    return users[0].args[0] is not transpose.result


def transposed_operands(
    defs: dict[int, Op], uses: dict[int, list[Op]], params: list[ParamInfo], shared: bool = False
) -> dict[int, Op]:
    """`tile.transpose(load)` values used only as one matmul's B (staged as the load's rows, read K-major):
    transpose value id -> the load.  The load itself has no other use, unless `shared` (the sm_90a lowering,
    where one shared-memory tile serves both readings: wgmma reads a (BN, BK) tile K-major and a (BK, BN) one
    MN-major from the same 128-byte-swizzle layout): then it may also be any matmul's A or B directly (attention's
    backward reads K as `tile.transpose(k)` for `q @ k^T` and as `k` for `ds @ k`)."""
    out: dict[int, Op] = {}
    for vid, op in list(defs.items()):
        if op.kind != "transpose" or op.result is None:
            continue
        src = defs.get(op.args[0].id)
        if src is None or src.kind != "load" or src.result is None or not _kmajor_b_use(uses, op):
            continue
        src_users = uses.get(src.result.id, [])
        if shared:
            direct = [u for u in src_users if u.kind == "matmul" and u.args[2] is not src.result]
            kmajor = [u for u in src_users if u.kind == "transpose" and _kmajor_b_use(uses, u)]
            if len(direct) + len(kmajor) != len(src_users):
                continue
        elif len(src_users) != 1:
            continue
        if not copyable_operand(params, src):
            continue
        out[vid] = src
    return out


def mnmajor_a_operands(
    defs: dict[int, Op], uses: dict[int, list[Op]], params: list[ParamInfo], threads: int
) -> dict[int, Op]:
    """sm_90a: `tile.transpose(load)` values read once, as the A of an f16/bf16 matmul that a warpgroup of
    `threads` takes (BM = 64 per warpgroup, BK a multiple of 16, BN a multiple of 64 up to 256): transpose
    value id -> the load.  wgmma reads the load's staged (BK, BM) tile MN-major (`imm-trans-a`), so `K^T` of
    attention's `dQ^T = K^T dS^T` needs no copy of its own.  The load's other uses are the caller's to check."""
    out: dict[int, Op] = {}
    for vid, op in defs.items():
        if op.kind != "transpose" or op.result is None:
            continue
        src = defs.get(op.args[0].id)
        if src is None or src.kind != "load" or src.result is None or not copyable_operand(params, src):
            continue
        users = uses.get(vid, [])
        if len(users) != 1 or users[0].kind != "matmul" or off_tensor_cores(users[0]):
            continue
        m = users[0]
        if m.args[0] is not op.result or m.args[1] is op.result or m.args[2] is op.result:
            continue
        a_t, b_t = m.args[0].type, m.args[1].type
        assert isinstance(a_t, TileType) and isinstance(b_t, TileType)
        if a_t.dtype.name not in ("f16", "bf16") or b_t.dtype != a_t.dtype:
            continue
        (bm, bk), (_, bn) = a_t.shape, b_t.shape
        if threads % 128 or bm != 64 * (threads // 128) or bk % 16 or bn % 64 or bn > MAX_N:
            continue
        out[vid] = src
    return out


def pipelined_matmul(candidates: dict[int, Op], loop: ForOp) -> tuple[Op, Op, Op] | None:
    """(matmul, A load, B load) when the loop's first matmul reads two operand loads (`candidates`: value id
    -> load) made inside the loop body and accumulates into a loop-carried tile: a GEMM main loop."""
    for op in loop.body:
        if op.kind != "matmul":
            continue
        a, bv, acc = op.args
        la, lb = candidates.get(a.id), candidates.get(bv.id)
        if la is None or lb is None or la not in loop.body or lb not in loop.body:
            return None
        if not any(c.phi is acc for c in loop.carried):
            return None
        return op, la, lb
    return None


def fp8_wgmma_fits(op: Op, transposed: set[int] | dict[int, Op], threads: int) -> bool:
    """An fp8 main-loop matmul the warpgroup path takes with `threads` threads: B K-major, BM = 64 per
    warpgroup, BN a multiple of 64 up to 256, BK a multiple of 128, at least 3 stages in shared memory."""
    a_t, b_t = op.args[0].type, op.args[1].type
    assert isinstance(a_t, TileType) and isinstance(b_t, TileType)
    if op.args[1].id not in transposed:
        return False  # fp8 wgmma reads B K-major only
    (bm, bk), (_, bn) = a_t.shape, b_t.shape
    return shape_ok(bm, bn, bk // 2, threads) and bk % 128 == 0 and stages_for(bm * bk + bk * bn) >= 3


# -- the rules ------------------------------------------------------------------------------------------------

#: What an fp8 matmul must look like (the message of its refusal).
WARPGROUP_FORM = (
    "a `range` loop whose matmul reads an aligned tile load as A and `tile.transpose` of one as B (K-major), "
    "BM = 64 per warpgroup, BN a multiple of 64 up to 256 and BK a multiple of 128"
)


@dataclass(frozen=True)
class TargetRefusal:
    """A broken target rule: at `op` (or, when None, at parameter `param`), with its message."""

    message: str
    op: Op | None = None
    param: int = -1


def _walk(ops: list[Op]) -> Iterator[Op]:
    for op in ops:
        yield op
        if isinstance(op, ForOp):
            yield from _walk(op.body)


def _loops(ops: list[Op]) -> Iterator[ForOp]:
    for op in _walk(ops):
        if isinstance(op, ForOp):
            yield op


def fp8_arch_ok(arch: str) -> bool:
    return int(arch[3:5]) >= 89


def first_refusal(kir: TileKernelIR, arch: str, num_warps: int | None) -> TargetRefusal | None:
    """The first target rule `kir` breaks on `arch` (with the kernel's `num_warps=`, None: the compiler's).

    The form of fp8 matmuls is judged first, for the reference target, so a kernel the CPU executor refuses
    gets that same refusal on every target; the rules of older targets come after."""
    fp8_matmuls = [
        op
        for op in _walk(kir.body)
        if op.kind == "matmul" and isinstance(op.args[0].type, TileType) and op.args[0].type.dtype.name in F8
    ]
    refusal = _fp8_matmul_form(kir, fp8_matmuls, num_warps) if fp8_matmuls else None
    if refusal is not None:
        return refusal
    if not fp8_arch_ok(arch):
        what = f"need sm_89 or newer (fp8 conversions); got {arch}"
        for i, p in enumerate(kir.params):
            if p.dtype.name in F8:
                return TargetRefusal(f"f8e4m3/f8e5m2 tensors {what}", param=i)
        for op in _walk(kir.body):
            t = op.result.type if op.result is not None else None
            if isinstance(t, TileType) and t.dtype.name in F8:
                return TargetRefusal(f"f8e4m3/f8e5m2 tiles {what}", op)
    if fp8_matmuls and arch != "sm_90a":
        return TargetRefusal(
            f"tile.matmul on {fp8_matmuls[0].args[0].type.dtype} runs on sm_90a warpgroup MMA only (what a launch "
            f"on a compute-capability 9.0 GPU compiles for); got {arch}",
            fp8_matmuls[0],
        )
    return None


def _fp8_matmul_form(kir: TileKernelIR, fp8_matmuls: list[Op], num_warps: int | None) -> TargetRefusal | None:
    """The first fp8 matmul that is not a warpgroup GEMM main loop (`WARPGROUP_FORM`) on the reference target."""
    defs: dict[int, Op] = {}
    uses: dict[int, list[Op]] = {}
    index_ops(kir.body, defs, uses)
    candidates = {vid: op for vid, op in defs.items() if op.kind == "load" and mma_operand(uses, kir.params, op)}
    transposed = transposed_operands(defs, uses, kir.params)
    candidates.update(transposed)
    main_loop = set()
    for loop in _loops(kir.body):
        found = pipelined_matmul(candidates, loop)
        if found is not None:
            main_loop.add(id(found[0]))
    if num_warps is None:
        from safekernels.codegen.tile.pipeline import choose_num_warps

        num_warps = choose_num_warps(kir, REFERENCE_ARCH)
    for op in fp8_matmuls:
        if id(op) not in main_loop or not fp8_wgmma_fits(op, transposed, 32 * num_warps):
            dtype = op.args[0].type.dtype
            return TargetRefusal(f"tile.matmul on {dtype} runs on sm_90a warpgroup MMA only: {WARPGROUP_FORM}", op)
    return None
