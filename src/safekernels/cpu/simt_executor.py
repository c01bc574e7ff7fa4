"""Run a SIMT kernel on the CPU, thread by thread, with the GPU's semantics.

Two schedules, chosen per kernel by `simt_program`:

- *plain* (no collectives anywhere in the kernel or its helpers): every thread runs to completion in order
  (blocks in x, y, z order; threads x fastest).  Nothing can observe the order, because without barriers
  threads of a kernel may not communicate except through atomics.
- *lockstep* (the kernel reaches `sync_threads` or a warp collective): the block's threads are generators.
  The scheduler runs each until it yields a collective, then resolves:

      warp collective   when every live lane of a warp waits on one (all on the same kind, else a trap);
                        the lanes' values are exchanged and the lanes resume
      barrier           when every live thread of the block waits on it; all resume
      neither possible  divergent collectives (some threads at a barrier, others at a shuffle or finished
                        in a warp that waits): a `KernelTrapError` instead of the GPU's hang

  "Live" means not yet returned: as on sm_70+, exited threads do not hold a barrier back.

Memory: slices wrap numpy views of the CPU buffers (writes land in place); f16, bf16 and fp8 data is widened
to f32 for the launch and rounded back (nearest even) for mutable parameters afterwards, because f16/bf16 are
storage types whose arithmetic is f32 (docs/numerics.md); shared arrays are per block; scalars are passed as
numpy scalars of their dtype (f16/bf16 ones as the f32 of their rounded value), so `f32` arithmetic stays in f32
(NEP 50) and `//`, `%` follow Python semantics.  Threads run with numpy's floating-point warnings off:
integer wrap-around and IEEE overflow, underflow and division are defined results in the language, not errors.
Out-of-bounds reads trap with a `KernelTrapError` naming kernel, index and length (also for
`unchecked_indexing` kernels: the CPU cannot read outside a buffer).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Sequence
from typing import Any

import numpy as np

from safekernels.dtypes import dtype_class, from_f32, is_encoded, to_f32
from safekernels.errors import KernelTrapError
from safekernels.runtime.buffer import DeviceBuffer
from safekernels.simt._context import BlockState, ThreadContext, state
from safekernels.simt.params import KernelParam
from safekernels.simt.types import AtomicSlice, DisjointSlice, Slice

from .simt_program import helper_needs_lockstep, lockstep_function, plain_function

__all__ = ["lockstep_function", "plain_function", "run_simt_kernel"]

WARP_SIZE = 32

_lock = threading.RLock()  # the executor's thread state is process-global; one launch at a time

_SLICE_CLASSES: dict[str, Callable[[Any, str], Any]] = {
    "slice": Slice,
    "disjoint": DisjointSlice,
    "atomic": AtomicSlice,
}


def _bind(params: Sequence[KernelParam], args: Sequence[Any]) -> tuple[list[Any], list[Callable[[], None]]]:
    """Kernel-side values for the converted launch arguments, and the write-backs to run afterwards."""
    values: list[Any] = []
    writebacks: list[Callable[[], None]] = []
    for param, arg in zip(params, args, strict=True):
        if not param.is_buffer:
            value = dtype_class(param.dtype.name)(arg)
            values.append(np.float32(value) if param.dtype.name == "f16" else value)
            continue
        assert isinstance(arg, DeviceBuffer)
        data = arg.host_view()
        if is_encoded(param.dtype) or param.dtype.name == "f16":  # compute on f32 values, store rounded
            half = param.dtype.name == "f16"
            widened = data.astype(np.float32) if half else to_f32(data, param.dtype).copy()
            if param.is_mutable:

                def write_back(dst: Any = data, src: Any = widened, dt: Any = param.dtype, h: bool = half) -> None:
                    dst[:] = src.astype(np.float16) if h else from_f32(src, dt)

                writebacks.append(write_back)
            data = widened
        values.append(_SLICE_CLASSES[param.kind](data, param.name))
    return values, writebacks


#: SK codes the front end reports that the CPU executor leaves to its own run-time checks: an unsafe operation
#: outside `with simt.unsafe():` raises `UnsafeOperationError` (E0133) where it runs, the twin of SK005; a kernel
#: whose source cannot be read (made by `exec`) runs as the Python it is.
_RUNTIME_CHECKED = frozenset({"SK005", "SK010"})


def validate_like_the_compiler(kernel: Any) -> None:
    """Type-check the kernel with the SIMT compiler's front end (pure Python, no llvmlite, no GPU), once per
    kernel, so the CPU executor refuses exactly what the GPU compiler refuses, with the same SK diagnostic and
    location (raises `DiagnosticError`)."""
    cache: dict[str, Any] = kernel._cpu_cache
    verdict = cache.get("frontend")
    if verdict is None:
        from ownership_check.diagnostics import DiagnosticError
        from safekernels.codegen.frontend import build_module, spec_from_kernel
        from safekernels.cpu.simt_program import note_site_types

        try:
            note_site_types(build_module(spec_from_kernel(kernel)).site_types)
            verdict = True
        except DiagnosticError as exc:
            verdict = True if {d.code for d in exc.diagnostics} <= _RUNTIME_CHECKED else exc
        cache["frontend"] = verdict
    if isinstance(verdict, BaseException):
        raise verdict


def run_simt_kernel(
    kernel: Any,
    grid: tuple[int, int, int],
    block: tuple[int, int, int],
    dynamic_shared: int,
    args: Sequence[Any],
) -> None:
    """Run a `SimtKernel` over `grid` x `block` with converted arguments (buffers, Python scalars)."""
    validate_like_the_compiler(kernel)
    values, writebacks = _bind(kernel.params, args)
    lockstep = helper_needs_lockstep(kernel, set())
    fn = lockstep_function(kernel) if lockstep else plain_function(kernel)
    with _lock, np.errstate(all="ignore"):
        saved = state.current
        try:
            if lockstep:
                _run_lockstep(kernel, fn, grid, block, values)
            else:
                _run_plain(kernel, fn, grid, block, values)
        finally:
            state.current = saved
    for write_back in writebacks:
        write_back()


def _annotate(exc: BaseException, ctx: ThreadContext) -> None:
    if not isinstance(exc, KernelTrapError):
        exc.add_note(f"in kernel `{ctx.kernel_name}`, {ctx.describe()} (CPU executor)")


def _run_plain(
    kernel: Any,
    fn: Callable[..., Any],
    grid: tuple[int, int, int],
    block: tuple[int, int, int],
    values: list[Any],
) -> None:
    ctx = ThreadContext(
        kernel.name, grid, block, lockstep=False, unchecked_indexing=kernel.unchecked_indexing
    )
    state.current = ctx
    gx, gy, gz = grid
    bdx, bdy, bdz = block
    xs = range(bdx)
    try:
        for bz in range(gz):
            ctx.bz = bz
            for by in range(gy):
                ctx.by = by
                for bx in range(gx):
                    ctx.bx = bx
                    ctx.block = BlockState()
                    for tz in range(bdz):
                        ctx.tz = tz
                        for ty in range(bdy):
                            ctx.ty = ty
                            for tx in xs:
                                ctx.tx = tx
                                ctx.unsafe_depth = 0
                                fn(*values)
    except BaseException as exc:
        _annotate(exc, ctx)
        raise


def _run_lockstep(
    kernel: Any,
    fn: Callable[..., Any],
    grid: tuple[int, int, int],
    block: tuple[int, int, int],
    values: list[Any],
) -> None:
    gx, gy, gz = grid
    for bz in range(gz):
        for by in range(gy):
            for bx in range(gx):
                _run_block(kernel, fn, grid, block, (bx, by, bz), values)


def _run_block(
    kernel: Any,
    fn: Callable[..., Generator[Any, Any, None]],
    grid: tuple[int, int, int],
    block: tuple[int, int, int],
    block_index: tuple[int, int, int],
    values: list[Any],
) -> None:
    bdx, bdy, _ = block
    n = block[0] * block[1] * block[2]
    shared = BlockState()
    ctxs: list[ThreadContext] = []
    gens: list[Generator[Any, Any, None]] = []
    for linear in range(n):
        ctx = ThreadContext(
            kernel.name, grid, block, lockstep=True, unchecked_indexing=kernel.unchecked_indexing
        )
        ctx.bx, ctx.by, ctx.bz = block_index
        ctx.tx, ctx.ty, ctx.tz = linear % bdx, (linear // bdx) % bdy, linear // (bdx * bdy)
        ctx.block = shared
        ctxs.append(ctx)
        state.current = ctx
        gens.append(fn(*values))  # creating a generator runs nothing yet
    resume: list[Any] = [None] * n
    waiting: list[tuple[str, tuple[Any, ...]] | None] = [None] * n
    done = [False] * n
    live = n
    runnable = list(range(n))
    while True:
        for i in runnable:
            ctx = ctxs[i]
            state.current = ctx
            try:
                waiting[i] = gens[i].send(resume[i])
            except StopIteration:
                done[i] = True
                live -= 1
            except BaseException as exc:
                _annotate(exc, ctx)
                raise
            resume[i] = None
        if live == 0:
            return
        runnable = _resolve_warps(ctxs[0], n, done, waiting, resume)
        if runnable:
            continue
        live_threads = [i for i in range(n) if not done[i]]
        pending = [waiting[i] for i in live_threads]
        if all(w is not None and w[0] == "barrier" for w in pending):
            for i in live_threads:
                waiting[i] = None
            runnable = live_threads
            continue
        raise KernelTrapError(_divergence_message(ctxs, live_threads, waiting))


def _divergence_message(
    ctxs: list[ThreadContext], live: list[int], waiting: list[tuple[str, tuple[Any, ...]] | None]
) -> str:
    where: dict[str, list[int]] = {}
    for i in live:
        w = waiting[i]
        where.setdefault(w[0] if w is not None else "running", []).append(i)
    summary = "; ".join(f"{kind}: threads {_ranges(ids)}" for kind, ids in where.items())
    c = ctxs[0]
    return (
        f"{c.kernel_name}: divergent collectives in block ({c.bx}, {c.by}, {c.bz}): the threads wait on "
        f"different collectives and none can complete ({summary}); on a GPU this hangs"
    )


def _ranges(ids: list[int]) -> str:
    return f"{ids[0]}..{ids[-1]}" if len(ids) > 3 else ", ".join(map(str, ids))


def _resolve_warps(
    ctx0: ThreadContext,
    n: int,
    done: list[bool],
    waiting: list[tuple[str, tuple[Any, ...]] | None],
    resume: list[Any],
) -> list[int]:
    """Complete each warp collective all of whose live lanes wait on it; return the lanes to resume."""
    runnable: list[int] = []
    for base in range(0, n, WARP_SIZE):
        lanes = [i for i in range(base, min(n, base + WARP_SIZE)) if not done[i]]
        if not lanes:
            continue
        requests = [waiting[i] for i in lanes]
        if any(r is None or r[0] == "barrier" for r in requests):
            continue
        kinds = {r[0] for r in requests if r is not None}
        if len(kinds) != 1:
            raise KernelTrapError(
                f"{ctx0.kernel_name}: lanes of warp {base // WARP_SIZE} in block ({ctx0.bx}, {ctx0.by}, "
                f"{ctx0.bz}) reached different warp collectives ({', '.join(sorted(kinds))})"
            )
        (kind,) = kinds
        lane_args = {i - base: r[1] for i, r in zip(lanes, requests, strict=True) if r is not None}
        results = _warp_collective(kind, lane_args)
        for i in lanes:
            resume[i] = results[i - base]
            waiting[i] = None
        runnable.extend(lanes)
    return runnable


def _warp_collective(kind: str, lane_args: dict[int, tuple[Any, ...]]) -> dict[int, Any]:
    values = {lane: args[0] for lane, args in lane_args.items()}
    if kind.startswith("shfl_"):
        out: dict[int, Any] = {}
        for lane, args in lane_args.items():
            arg = int(args[1])
            if kind == "shfl_down":
                src = lane + arg
            elif kind == "shfl_up":
                src = lane - arg
            elif kind == "shfl_xor":
                src = lane ^ arg
            else:
                src = arg % WARP_SIZE
            out[lane] = values[src] if 0 <= src < WARP_SIZE and src in values else values[lane]
        return out
    any_value = next(iter(values.values()))
    if kind == "reduce_sum":
        filler = type(any_value)(0)
        combine: Callable[[Any, Any], Any] = _add
    else:
        filler = any_value  # max/min are idempotent: a present lane's value is a neutral stand-in
        combine = _fmax if kind == "reduce_max" else _fmin
    lanes = [values.get(lane, filler) for lane in range(WARP_SIZE)]
    offset = WARP_SIZE // 2
    while offset:
        lanes = [combine(lanes[lane], lanes[lane ^ offset]) for lane in range(WARP_SIZE)]
        offset //= 2
    return {lane: lanes[lane] for lane in values}


def _add(a: Any, b: Any) -> Any:
    return a + b


def _fmax(a: Any, b: Any) -> Any:
    if a != a:  # NaN: like fmaxf, prefer the number
        return b
    return b if b > a else a


def _fmin(a: Any, b: Any) -> Any:
    if a != a:
        return b
    return b if b < a else a


def _is_float(value: Any) -> bool:
    return isinstance(value, float | np.floating)
