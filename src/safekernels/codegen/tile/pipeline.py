"""The tile pipeline: kernel + launch specialization -> tile IR -> LLVM IR -> PTX -> cubin, disk-cached.

    specialize (dtypes, ranks, tile shapes, alignment/divisibility, grid rank, num_warps)
      -> cache key -> hit: CompiledTile
                   -> miss: frontend (SK diagnostics) -> lowering -> O3 + NVPTX (+ libdevice) -> nvJitLink

PTX emission, libdevice linking, nvJitLink and the on-disk cache format are the SIMT pipeline's own modules
(`codegen.ptx`, `codegen.cubin`, `codegen.cache`); only the key is computed here, from the kernel's source,
the module-level constants it names, and the specialization.

Arch `sm_90a` (what the launcher asks for on a compute-capability 9.0 device) lets matmul main loops use
warpgroup MMA (`codegen.tile.wgmma`); a kernel that ends up with no wgmma is emitted for plain `sm_90`.

A cache hit imports neither the tile front end, the lowering nor llvmlite (they load in the miss path), so a
warm start pays only for hashing the key (`codegen.pipeline.tool_versions` reads versions from metadata).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from safekernels.codegen.cache import CacheEntry, load, source_key_parts, store
from safekernels.codegen.dump import dump_stage, dumping
from safekernels.codegen.tile.ir import ParamInfo, TileKernelIR
from safekernels.tile.ops import TileType

DEFAULT_ARCH = "sm_90"
FORMAT = "tile-1"


@dataclass(frozen=True)
class CompiledTile:
    name: str
    arch: str
    llvm_ir: str
    ptx: str
    cubin: bytes
    threads: int
    smem_bytes: int
    abi: list[tuple[str, int, int]]
    from_cache: bool = False
    asserts: list[list[Any]] = field(default_factory=list)  # [path, line, column, message] per device assert
    persistent: bool = False  # CTAs loop over tile blocks: launch at most one per SM (codegen.tile.persistent)
    #: "nvjitlink": load `cubin`; "driver": the PTX uses `setmaxnreg`, which nvJitLink's relocatable compile
    #: ignores: the launcher loads the driver's whole-program compile of `ptx` (codegen.whole_program)
    route: str = "nvjitlink"


def choose_num_warps(kir: TileKernelIR, arch: str = DEFAULT_ARCH) -> int:
    """4 warps per matmul CTA up to 128x128 accumulators (8 above), halved until every tensor-core matmul's
    accumulator splits over the warps in 16x16 pieces (a (16, 16) matmul runs on one warp); on sm_90a one
    warpgroup per 64 accumulator rows when the tile suits wgmma; otherwise about 16 elements per thread."""
    from safekernels.codegen.tile import wgmma
    from safekernels.codegen.tile.fma_matmul import FMA_DTYPES
    from safekernels.codegen.tile.layout import mma_for
    from safekernels.codegen.tile.tf32_matmul import fits, wants_tf32

    biggest = 1
    acc_elems = 0
    acc_shape: tuple[int, ...] = ()
    mma_shapes: list[tuple[int, int]] = []

    def walk(ops: list[Any]) -> None:
        nonlocal biggest, acc_elems, acc_shape
        for op in ops:
            if op.result is not None and isinstance(op.result.type, TileType):
                n = 1
                for s in op.result.type.shape:
                    n *= s
                biggest = max(biggest, n)
                if op.kind == "matmul" and n > acc_elems:
                    acc_elems, acc_shape = n, op.result.type.shape
                a_t = op.args[0].type if op.kind == "matmul" else None
                b_t = op.args[1].type if op.kind == "matmul" else None
                # TF32 tensor cores where one warp can take the shape (else the FMA path)
                tf32 = False
                if isinstance(a_t, TileType) and isinstance(b_t, TileType) and wants_tf32(op):
                    tf32 = fits(a_t.shape, b_t.shape, 1)
                tensor_core = isinstance(a_t, TileType) and (a_t.dtype.name not in FMA_DTYPES or tf32)
                if tensor_core and len(op.result.type.shape) == 2:
                    mma_shapes.append((op.result.type.shape[0], op.result.type.shape[1]))
            walk(getattr(op, "body", []))

    walk(kir.body)
    if acc_elems:
        if arch == "sm_90a" and len(acc_shape) == 2:
            hopper = wgmma.warps_for(acc_shape[0], acc_shape[1])
            if hopper is not None:
                return hopper
        warps = 8 if acc_elems > 128 * 128 else 4
        while warps > 1 and any(mma_for(shape, warps) is None for shape in mma_shapes):
            warps //= 2
        return warps
    return max(1, min(8, biggest // 512))


def _source_key(fn: Any) -> str:
    """Source, closure values, compile-time globals and inlined `@tile.function` helpers (`codegen.cache`)."""
    return "\0".join(source_key_parts(inspect.unwrap(fn)))


def validate_tile_meta(meta: dict[str, Any]) -> bool:
    """Whether a cache entry's metadata record is one this pipeline wrote (raises on a malformed record)."""
    name, arch, threads, smem, abi = meta["name"], meta["arch"], meta["threads"], meta["smem"], meta["abi"]
    return (
        isinstance(name, str)
        and name.isascii()
        and isinstance(arch, str)
        and isinstance(threads, int)
        and 0 < threads <= 1024
        and isinstance(smem, int)
        and smem >= 0
        and isinstance(abi, list)
        and all(isinstance(a, list) and len(a) == 3 and isinstance(a[0], str) for a in abi)
        and isinstance(meta["asserts"], list)
        and isinstance(meta.get("persistent", False), bool)
        and meta.get("route", "nvjitlink") in ("nvjitlink", "driver")
    )


@functools.cache
def compiler_hash() -> str:
    """Hash of this compiler's own sources: a changed lowering never reuses an old entry."""
    h = hashlib.sha256()
    here = Path(__file__).parent
    shared = [here.parent / "lowering" / "device_io.py", here.parent / "frontend" / "tile_device_io.py"]
    for path in [*sorted(here.glob("*.py")), *shared]:
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_key(
    fn: Any,
    params: list[ParamInfo],
    grid_rank: int,
    arch: str,
    num_warps: int | None,
    line_info: bool = False,
    fast_math: bool = False,
) -> str:
    from safekernels.codegen import whole_program
    from safekernels.codegen.pipeline import tool_versions
    from safekernels.codegen.tile import loop_split

    spec = {
        "whole_program": whole_program.ENABLED,
        "loop_split": loop_split.ENABLED,
        "format": FORMAT,
        "compiler": compiler_hash(),
        "arch": arch,
        "grid": grid_rank,
        "warps": num_warps,
        "lineinfo": line_info,
        "fast_math": fast_math,
        **tool_versions(),
        "params": [(p.name, p.kind, p.dtype.name, p.rank, p.tile_shape, p.aligned) for p in params],
    }
    h = hashlib.sha256(json.dumps(spec, sort_keys=True).encode())
    h.update(_source_key(fn).encode())
    return h.hexdigest()


def _function_lines(fn: Any, kir: TileKernelIR) -> Any:
    """`.loc` line info for the tile lowering (codegen.lowering.line_info), from the kernel's `def` line."""
    from safekernels.codegen.lowering.line_info import FunctionLines

    try:
        def_line = inspect.getsourcelines(inspect.unwrap(fn))[1]
    except (OSError, TypeError):
        def_line = 0
    return FunctionLines(kir.path, def_line)


def compile_tile(
    fn: Any,
    params: list[ParamInfo],
    grid_rank: int,
    *,
    arch: str = DEFAULT_ARCH,
    num_warps: int | None = None,
    use_cache: bool = True,
    assemble: bool = True,
    line_info: bool | None = None,
    fast_math: bool = False,
) -> CompiledTile:
    """Compile tile kernel function `fn` for one specialization (raises DiagnosticError on SK errors)."""
    from safekernels.codegen.arch import check_arch
    from safekernels.codegen.frontend.mangle import entry_symbol
    from safekernels.codegen.pipeline import line_info_default

    check_arch(arch)
    lines = line_info_default() if line_info is None else line_info
    key = cache_key(fn, params, grid_rank, arch, num_warps, lines, fast_math) if use_cache and not dumping() else None
    if key is not None:
        hit = load(key, validate_tile_meta)
        if hit is not None:
            m = hit.meta
            return CompiledTile(
                str(m["name"]),
                str(m.get("arch", arch)),
                hit.llvm_ir,
                hit.ptx,
                hit.cubin,
                int(m["threads"]),
                int(m["smem"]),
                [tuple(x) for x in m["abi"]],
                True,
                [list(a) for a in m["asserts"]],
                bool(m.get("persistent", False)),
                str(m.get("route", "nvjitlink")),
            )
    from safekernels.codegen.tile.diagnostics import tile_error
    from safekernels.codegen.tile.frontend import build_tile_ir
    from safekernels.codegen.tile.lower import LoweringError, lower_tile_kernel

    kir = build_tile_ir(fn, params, grid_rank, arch=arch, num_warps=num_warps)
    kir.name = entry_symbol(kir.name)
    from safekernels.codegen.tile.rewrites import rewrite_tile_ir

    rewrite_tile_ir(kir, fast_math=fast_math)  # exp as exp2 (fast_math), masks as one compare (tile.rewrites)
    from safekernels.codegen.tile.loop_split import split_loops

    split_loops(kir)  # iterations where a mask is provably all-true run without it (tile.loop_split)
    dump_stage(kir.name, arch, "kir.txt", lambda: repr(kir))
    warps = num_warps or choose_num_warps(kir, arch)
    try:
        lowered = lower_tile_kernel(
            kir, warps, arch, line_info=_function_lines(fn, kir) if lines else None, fast_math=fast_math
        )
    except LoweringError as exc:
        import ast

        from safekernels.codegen.frontend.source import load_source

        src = load_source(inspect.unwrap(fn))
        node = ast.Pass(lineno=max(1, exc.line - src.first_line + 1), col_offset=4) if exc.line else None
        raise tile_error("SK004", str(exc), src, node) from None
    from safekernels.codegen.libdevice import find_libdevice
    from safekernels.codegen.ptx import optimize_and_emit

    libdevice = find_libdevice() if "__nv_" in lowered.llvm_ir else None
    target = arch
    if arch == "sm_90a" and not lowered.uses_wgmma:
        target = "sm_90"
    dump_stage(kir.name, arch, "ll", lambda: lowered.llvm_ir)
    opt_ir, ptx = optimize_and_emit(lowered.llvm_ir, target, libdevice)
    dump_stage(kir.name, arch, "opt.ll", lambda: opt_ir)
    dump_stage(kir.name, arch, "ptx", lambda: ptx)
    from safekernels.codegen import whole_program

    wants_driver = whole_program.ENABLED and target == "sm_90a" and whole_program.wants_whole_program(ptx)
    cubin = b""
    if assemble:
        from safekernels.codegen.cubin import assemble_cubin

        cubin = assemble_cubin(ptx, target, kir.name)
        dump_stage(kir.name, arch, "cubin", lambda: cubin)
    from safekernels.codegen.frontend.tile_device_io import tile_asserts

    out = CompiledTile(
        kir.name,
        target,
        opt_ir,
        ptx,
        cubin,
        lowered.threads,
        lowered.smem_bytes,
        lowered.abi,
        asserts=tile_asserts(kir.body),
        persistent=lowered.persistent,
        route="driver" if wants_driver else "nvjitlink",
    )
    if key is not None and assemble:
        store(
            key,
            CacheEntry(
                opt_ir,
                ptx,
                cubin,
                {
                    "name": out.name,
                    "arch": out.arch,
                    "threads": out.threads,
                    "smem": out.smem_bytes,
                    "abi": [list(a) for a in out.abi],
                    "asserts": out.asserts,
                    "persistent": out.persistent,
                    "route": out.route,
                },
            ),
        )
    return out
