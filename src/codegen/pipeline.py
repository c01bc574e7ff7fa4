"""The whole SIMT pipeline behind `codegen.compile_simt_kernel`:

kernel ─spec─▶ cache key ─hit─▶ CompiledKernel
                    │miss
                    ▼
frontend (AST → typed IR) ─▶ lowering (LLVM IR) ─▶ libdevice link + O3 + NVPTX (PTX) ─▶ nvJitLink (cubin)
                                                                                          │
                                                                      disk cache ◀────────┘
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field

import llvmlite

from codegen.cache import CacheEntry, cache_key, load, store
from codegen.cubin import assemble_cubin, nvjitlink_version
from codegen.frontend import build_module, spec_from_kernel
from codegen.frontend.spec import KernelSpec
from codegen.libdevice import find_libdevice, libdevice_version
from codegen.lowering import LoweringOptions, lower_module
from codegen.lowering.math_lowering import NeedsLibdevice
from codegen.param_plan import ParamPlan
from codegen.ptx import optimize_and_emit

APPROX_ENV = "SAFEKERNELS_APPROX_MATH"
DEFAULT_ARCH = "sm_90"


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
    from safekernels import __version__

    return {
        "safekernels": __version__,
        "llvmlite": llvmlite.__version__,
        "nvjitlink": nvjitlink_version(),
        "libdevice": libdevice_version(find_libdevice()),
    }


def approx_math_default() -> bool:
    return os.environ.get(APPROX_ENV, "") not in ("", "0")


def compile_simt_kernel(
    kernel: object,
    *,
    arch: str = DEFAULT_ARCH,
    approx_math: bool | None = None,
    use_cache: bool = True,
    assume_requires: bool = False,
) -> CompiledKernel:
    """Compile a `@simt.kernel` (or a plain annotated function) for `arch`; raises `DiagnosticError` with SK
    diagnostics for unsupported code.  `assume_requires=True` compiles the variant that assumes the contract's
    `requires` relations (`llvm.assume` at entry); use it only for launches that evaluate them first."""
    spec = spec_from_kernel(kernel, assume_requires=assume_requires)
    approx = approx_math_default() if approx_math is None else approx_math
    key = cache_key(spec, arch, approx, tool_versions()) if use_cache else None
    if key is not None:
        hit = load(key)
        if hit is not None:
            return CompiledKernel(
                entry_name=str(hit.meta["entry"]),
                arch=arch,
                llvm_ir=hit.llvm_ir,
                ptx=hit.ptx,
                cubin=hit.cubin,
                param_plan=ParamPlan.from_json(str(hit.meta["plan"])),
                block=tuple(hit.meta["block"]) if hit.meta.get("block") else None,
                from_cache=True,
                meta=hit.meta,
            )
    compiled = _compile(spec, arch, approx)
    if key is not None:
        store(key, CacheEntry(compiled.llvm_ir, compiled.ptx, compiled.cubin, dict(compiled.meta)))
    return compiled


def _compile(spec: KernelSpec, arch: str, approx: bool) -> CompiledKernel:
    module = build_module(spec)
    libdevice = find_libdevice() if module.uses_math else None
    try:
        llvm_ir = lower_module(
            module,
            LoweringOptions(
                approx_math=approx,
                have_libdevice=libdevice is not None,
                assumptions=spec.requires if spec.assume_requires else (),
            ),
        )
    except NeedsLibdevice as exc:
        raise LibdeviceNotFoundError(
            f"{spec.name}: math.{exc} needs libdevice.10.bc, which was not found; install the pip package "
            f"`nvidia-nvvm` (or set SAFEKERNELS_LIBDEVICE), or allow approximate math with {APPROX_ENV}=1"
        ) from None
    _, ptx = optimize_and_emit(llvm_ir, arch, libdevice)
    cubin = assemble_cubin(ptx, arch, spec.name)
    plan = ParamPlan.from_abi(module.abi)
    meta: dict[str, object] = {
        "entry": module.kernel.name,
        "plan": plan.to_json(),
        "block": list(module.block) if module.block else None,
    }
    return CompiledKernel(module.kernel.name, arch, llvm_ir, ptx, cubin, plan, module.block, False, meta)
