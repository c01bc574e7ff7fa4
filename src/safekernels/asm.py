"""`kernel.asm`: the compiled code of a kernel from Python, as Triton's `compiled.asm[...]`, without a dump folder.

    vecadd.asm["ptx"]                     # SIMT: the PTX for the default architecture
    vecadd.inspect(arch="sm_80")["llvm"]  # another architecture
    add.inspect(z, x, y)["sass"]          # tile: one specialization, from launch values (not moved) or tile.spec
    add.asm["ptx"]                        # tile: the kernel's one `tile.specialize(...)` declaration

The stages are those `safekernels build --emit` writes: `llvm` (the LLVM IR as lowered), `ptx`, `sass` (the
register / spill / shared-memory / instruction-mix summary of the cubin) and, as bytes, `cubin`.  Compiling uses
the same pipeline and disk cache as a launch, so inspecting a kernel that has run costs a cache read; no GPU is
needed (nvJitLink assembles the cubin).  The SIMT variant is the one `safekernels build` emits (the launch
contract's `requires` assumed); the default architecture is the default GPU's, else sm_90.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

#: The text stages, in pipeline order (`llir` is accepted as Triton's name for `llvm`).
STAGES: Final[tuple[str, ...]] = ("llvm", "ptx", "sass")
_ALIASES: Final[dict[str, str]] = {"llir": "llvm", "ll": "llvm", "sass-summary": "sass"}


@dataclass(frozen=True, eq=False)
class KernelAsm(Mapping[str, str]):
    """The compiled stages of one kernel (one specialization, one architecture): a read-only mapping of text."""

    name: str
    arch: str
    entry: str
    llvm: str
    ptx: str
    cubin: bytes

    @functools.cached_property
    def sass(self) -> str:
        """The SASS summary (`safekernels build --emit sass-summary`), computed on first use."""
        from safekernels.codegen.sass_summary import format_summary, summarize

        return format_summary(summarize(self.name, self.entry, self.arch, self.ptx, self.cubin))

    def __getitem__(self, stage: str) -> str:
        key = _ALIASES.get(stage, stage)
        if key not in STAGES:
            raise KeyError(f"{stage!r}: no such stage of {self.name} (stages: {', '.join(STAGES)}; cubin is .cubin)")
        return str(getattr(self, key))

    def __iter__(self) -> Iterator[str]:
        return iter(STAGES)

    def __len__(self) -> int:
        return len(STAGES)

    def __repr__(self) -> str:
        return f"<KernelAsm {self.name} {self.arch}: {', '.join(STAGES)}, cubin ({len(self.cubin)} bytes)>"


def default_arch() -> str:
    """The default GPU's architecture, else the compiler's default (inspecting needs no GPU)."""
    from safekernels.codegen.pipeline import DEFAULT_ARCH
    from safekernels.runtime.device import Device

    try:
        device = Device.default()
    except Exception:  # no driver, a broken one: inspection still works for the default architecture
        return DEFAULT_ARCH
    return DEFAULT_ARCH if device.is_cpu else str(device.arch)


def simt_asm(kernel: Any, arch: str | None = None) -> KernelAsm:
    """The stages of a `@simt.kernel` for `arch`."""
    from safekernels.codegen.pipeline import compile_simt_kernel

    target = arch or default_arch()
    compiled = compile_simt_kernel(kernel, arch=target, assume_requires=True)
    return KernelAsm(kernel.name, compiled.arch, compiled.entry_name, compiled.llvm_ir, compiled.ptx, compiled.cubin)


def tile_asm(kernel: Any, args: tuple[Any, ...], arch: str | None = None) -> KernelAsm:
    """The stages of a `@tile.kernel` specialized by `args` (launch values or `tile.spec`s; none: the declared
    specialization, when there is exactly one)."""
    from safekernels.codegen.tile.pipeline import compile_tile
    from safekernels.codegen.tile.specialize import specialize
    from safekernels.tile.specializations import check_argument, declared
    from safekernels.tile.tensor import TensorSpec

    if not args:
        known = declared(kernel)
        if len(known) != 1:
            raise TypeError(
                f"{kernel.name}.asm needs one specialization: the kernel declares {len(known)} "
                f"(tile.specialize); call {kernel.name}.inspect(...) with launch values or tile.spec(...)s"
            )
        args = known[0]
    if len(args) != len(kernel.params):
        names = ", ".join(p.name for p in kernel.params)
        raise TypeError(f"{kernel.name}.inspect: {len(kernel.params)} arguments expected ({names}), got {len(args)}")
    specs: list[Any] = []
    for param, arg in zip(kernel.params, args, strict=True):
        if isinstance(arg, TensorSpec) or param.kind == "scalar":
            check_argument(kernel.name, param, arg)
            specs.append(arg)
            continue
        found = kernel._static_spec(param, arg)  # type-checks the value like a launch; moves nothing
        if found is None:
            raise TypeError(
                f"{kernel.name}.inspect: the shape of `{param.name}` is not known before it runs; "
                "pass tile.spec(shape, dtype, tile=...) for it"
            )
        specs.append(found)
    infos, grid_rank = specialize(kernel, specs)
    target = arch or default_arch()
    target = "sm_90a" if target == "sm_90" else target  # what the launcher compiles for on a 9.0 device
    compiled = compile_tile(
        kernel.fn,
        infos,
        grid_rank,
        arch=target,
        num_warps=getattr(kernel, "num_warps", None),
        fast_math=bool(getattr(kernel, "fast_math", False)),
    )
    return KernelAsm(kernel.name, compiled.arch, compiled.name, compiled.llvm_ir, compiled.ptx, compiled.cubin)
