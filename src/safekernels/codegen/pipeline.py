"""The whole SIMT pipeline behind `codegen.compile_simt_kernel`:

kernel ─spec─▶ cache key ─hit─▶ CompiledKernel
                    │miss
                    ▼
frontend (AST → typed IR) ─▶ lowering (LLVM IR) ─▶ libdevice link + O3 + NVPTX (PTX) ─▶ nvJitLink (cubin)
                                                                                          │
                                                                      disk cache ◀────────┘

Observability: the `safekernels.codegen` logger reports cache hits and misses (DEBUG) and each stage's time
(INFO: `compiled <kernel> for sm_90 in 41.2 ms (frontend 3.1, lower 2.0, ptx 20.5, cubin 15.6)`), and
`SAFEKERNELS_DUMP_DIR=dir` writes every stage's text for each compiled kernel into `dir`
(`<kernel>.<arch>.{py.txt,kir.txt,ll,opt.ll,ptx,cubin}`; `codegen.dump`).  `SAFEKERNELS_LINEINFO=1` (or
`line_info=True`) emits `.loc` line info naming the Python source (`codegen.lowering.line_info`).

A hit is cheap on purpose (a warm start loads every kernel this way): the key needs the kernel's source and
parameters (`frontend.spec`) and the toolchain's versions, read from the installed distributions' metadata
folders (`tool_versions`, `codegen.toolchain`), so neither the front end's builder, the lowering, llvmlite nor
libnvJitLink is imported until a miss compiles.  `tests/codegen/test_warm_cache_imports.py` holds that line.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

from safekernels.codegen.cache import CacheEntry, cache_key, load, store
from safekernels.codegen.cubin import nvjitlink_version
from safekernels.codegen.dump import dump_stage, dumping
from safekernels.codegen.frontend.spec import KernelSpec, spec_from_kernel
from safekernels.codegen.libdevice import find_libdevice, libdevice_version
from safekernels.codegen.param_plan import ParamPlan
from safekernels.codegen.toolchain import compiler_fingerprint, distribution_version

APPROX_ENV = "SAFEKERNELS_APPROX_MATH"
LINEINFO_ENV = "SAFEKERNELS_LINEINFO"
VECTOR_BYTES_ENV = "SAFEKERNELS_SIMT_VECTOR_BYTES"
DEFAULT_ARCH = "sm_90"

log = logging.getLogger("safekernels.codegen")


class LibdeviceNotFoundError(RuntimeError):
    """A kernel uses `math.*` but libdevice.10.bc was not found and approximate math is off."""


@dataclass(frozen=True)
class CompiledKernel:
    entry_name: str
    arch: str
    llvm_ir: str
    ptx: str
    cubin: bytes
    param_plan: ParamPlan
    block: tuple[int, int, int] | None
    from_cache: bool = False
    meta: dict[str, object] = field(default_factory=dict)


@functools.cache
def tool_versions() -> dict[str, str]:
    """The toolchain a cache key names, once per process, without loading llvmlite or libnvJitLink."""
    from safekernels import __version__

    llvmlite_version = distribution_version("llvmlite")
    if llvmlite_version is None:  # not installed as a distribution: ask the module
        import llvmlite

        llvmlite_version = llvmlite.__version__
    return {
        "safekernels": __version__,
        "llvmlite": llvmlite_version,
        "nvjitlink": nvjitlink_version(),
        "libdevice": libdevice_version(find_libdevice()),
        "compiler": compiler_fingerprint(),
    }


def approx_math_default() -> bool:
    return os.environ.get(APPROX_ENV, "") not in ("", "0")


def line_info_default() -> bool:
    return os.environ.get(LINEINFO_ENV, "") not in ("", "0")


def vector_bytes_default() -> int:
    """Bytes per buffer and thread that elementwise kernels are coarsened to (`lowering.coarsen`); 0 = off."""
    raw = os.environ.get(VECTOR_BYTES_ENV, "").strip()
    if not raw:
        return 16
    if raw not in ("0", "4", "8", "16", "32"):
        raise ValueError(f"{VECTOR_BYTES_ENV}={raw!r}: expected 0 (off), 4, 8, 16 or 32")
    return int(raw)


def validate_simt_meta(meta: dict[str, Any]) -> bool:
    """Whether a cache entry's metadata record is one this pipeline wrote (raises on a malformed record)."""
    entry, plan, block, asserts = meta["entry"], meta["plan"], meta["block"], meta["asserts"]
    if not isinstance(entry, str) or not entry.isascii() or not entry:
        return False
    ParamPlan.from_json(str(plan))
    if block is not None and not (
        isinstance(block, list) and len(block) == 3 and all(isinstance(b, int) and b > 0 for b in block)
    ):
        return False
    coarse = meta.get("coarse")
    if coarse is not None and not (
        isinstance(coarse, list)
        and len(coarse) == 2
        and isinstance(coarse[0], str)
        and coarse[0].isascii()
        and isinstance(coarse[1], int)
        and 2 <= coarse[1] <= 8
    ):
        return False
    return isinstance(asserts, list) and all(
        isinstance(a, list) and len(a) == 4 and isinstance(a[0], str) and isinstance(a[3], str) for a in asserts
    )


def compile_simt_kernel(
    kernel: object,
    *,
    arch: str = DEFAULT_ARCH,
    approx_math: bool | None = None,
    use_cache: bool = True,
    assume_requires: bool = False,
    line_info: bool | None = None,
) -> CompiledKernel:
    """Compile a `@simt.kernel` (or a plain annotated function) for `arch`; raises `DiagnosticError` with SK
    diagnostics for unsupported code.  `assume_requires=True` compiles the variant that assumes the contract's
    `requires` relations (`llvm.assume` at entry); use it only for launches that evaluate them first."""
    from safekernels.codegen.arch import check_arch

    check_arch(arch)
    spec = spec_from_kernel(kernel, assume_requires=assume_requires)
    approx = approx_math_default() if approx_math is None else approx_math
    lines = line_info_default() if line_info is None else line_info
    vector_bytes = vector_bytes_default()
    versions = {**tool_versions(), "lineinfo": str(lines), "vector_bytes": str(vector_bytes)}
    key = cache_key(spec, arch, approx, versions) if use_cache and not dumping() else None
    if key is not None:
        hit = load(key, validate_simt_meta)
        if hit is not None:
            log.debug("cache hit: %s for %s", spec.name, arch)
            block = hit.meta["block"]
            return CompiledKernel(
                entry_name=str(hit.meta["entry"]),
                arch=arch,
                llvm_ir=hit.llvm_ir,
                ptx=hit.ptx,
                cubin=hit.cubin,
                param_plan=ParamPlan.from_json(str(hit.meta["plan"])),
                block=(int(block[0]), int(block[1]), int(block[2])) if block else None,
                from_cache=True,
                meta=hit.meta,
            )
        log.debug("cache miss: %s for %s", spec.name, arch)
    compiled = _compile(spec, arch, approx, lines, vector_bytes)
    if key is not None:
        store(key, CacheEntry(compiled.llvm_ir, compiled.ptx, compiled.cubin, dict(compiled.meta)))
    return compiled


def _compile(
    spec: KernelSpec, arch: str, approx: bool, line_info: bool = False, vector_bytes: int = 16
) -> CompiledKernel:
    """A cache miss: every stage (the imports of the front end, the lowering and llvmlite happen here)."""
    from safekernels.codegen.cubin import assemble_cubin
    from safekernels.codegen.frontend.builder import build_module
    from safekernels.codegen.frontend.mangle import entry_symbol
    from safekernels.codegen.lowering import LoweringOptions, lower_module
    from safekernels.codegen.lowering.coarsen import plan_coarsening
    from safekernels.codegen.lowering.math_lowering import NeedsLibdevice
    from safekernels.codegen.lowering.module import coarsened_entry_name
    from safekernels.codegen.ptx import optimize_and_emit

    times: dict[str, float] = {}
    start = time.perf_counter()
    module = build_module(spec)
    module.kernel.name = entry_symbol(spec.name)
    times["frontend"] = time.perf_counter() - start
    dump_stage(spec.name, arch, "kir.txt", lambda: _describe_ir(module))
    libdevice = find_libdevice() if module.uses_math else None
    coarsen = plan_coarsening(module, vector_bytes)
    stage = time.perf_counter()
    try:
        llvm_ir = lower_module(
            module,
            LoweringOptions(
                approx_math=approx,
                have_libdevice=libdevice is not None,
                assumptions=spec.requires if spec.assume_requires else (),
                line_info=line_info,
                coarsen=coarsen,
            ),
        )
    except NeedsLibdevice as exc:
        raise LibdeviceNotFoundError(
            f"{spec.name}: math.{exc} needs libdevice.10.bc, which was not found; install the pip package "
            f"`nvidia-nvvm` (or set SAFEKERNELS_LIBDEVICE), or allow approximate math with {APPROX_ENV}=1"
        ) from None
    times["lower"] = time.perf_counter() - stage
    dump_stage(spec.name, arch, "ll", lambda: llvm_ir)
    stage = time.perf_counter()
    optimized, ptx = optimize_and_emit(llvm_ir, arch, libdevice)
    times["ptx"] = time.perf_counter() - stage
    dump_stage(spec.name, arch, "opt.ll", lambda: optimized)
    dump_stage(spec.name, arch, "ptx", lambda: ptx)
    stage = time.perf_counter()
    cubin = assemble_cubin(ptx, arch, spec.name)
    times["cubin"] = time.perf_counter() - stage
    dump_stage(spec.name, arch, "cubin", lambda: cubin)
    plan = ParamPlan.from_abi(module.abi)
    meta: dict[str, object] = {
        "entry": module.kernel.name,
        "plan": plan.to_json(),
        "block": list(module.block) if module.block else None,
        "asserts": [list(a) for a in module.asserts],
    }
    if coarsen is not None:  # the second entry point, used when the grid is a multiple of the factor
        meta["coarse"] = [coarsened_entry_name(module.kernel.name, coarsen.factor), coarsen.factor]
    log_stage_times(spec.name, arch, time.perf_counter() - start, times)
    return CompiledKernel(module.kernel.name, arch, llvm_ir, ptx, cubin, plan, module.block, False, meta)


def log_stage_times(name: str, arch: str, total: float, times: dict[str, float]) -> None:
    if log.isEnabledFor(logging.INFO):
        stages = ", ".join(f"{stage} {seconds * 1e3:.1f}" for stage, seconds in times.items())
        log.info("compiled %s for %s in %.1f ms (%s)", name, arch, total * 1e3, stages)


def _describe_ir(module: Any) -> str:
    from pprint import pformat

    return pformat(module, width=120)
