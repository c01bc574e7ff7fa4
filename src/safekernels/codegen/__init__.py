"""Code generator: checked SIMT kernels -> LLVM IR (llvmlite) -> PTX (NVPTX) -> cubin (nvJitLink), cached.

Stages, one folder/module each, data flowing one way:
`frontend/` (Python AST -> typed kernel IR, SK diagnostics) -> `ir/` -> `lowering/` (LLVM IR) -> `libdevice`
-> `ptx` (O3 + NVPTX) -> `cubin` (nvJitLink) -> `cache`; `pipeline.compile_simt_kernel` runs them.
Imports nothing heavy until used: `import codegen` is free; compiling loads llvmlite and nvJitLink.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from safekernels.codegen.pipeline import CompiledKernel


def compile_simt_kernel(
    kernel: Any,
    *,
    arch: str = "sm_90",
    approx_math: bool | None = None,
    use_cache: bool = True,
    assume_requires: bool = False,
    line_info: bool | None = None,
) -> CompiledKernel:
    """See `codegen.pipeline.compile_simt_kernel`."""
    from safekernels.codegen.pipeline import compile_simt_kernel as _compile

    return _compile(
        kernel,
        arch=arch,
        approx_math=approx_math,
        use_cache=use_cache,
        assume_requires=assume_requires,
        line_info=line_info,
    )


__all__ = ["CompiledKernel", "compile_simt_kernel"]


def __getattr__(name: str) -> Any:
    if name == "CompiledKernel":
        from safekernels.codegen.pipeline import CompiledKernel

        return CompiledKernel
    raise AttributeError(name)
