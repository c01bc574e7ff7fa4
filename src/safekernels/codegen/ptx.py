"""LLVM IR -> optimized module -> PTX with llvmlite's NVPTX backend (new pass manager, O3).

The arch is `sm_80`..`sm_90` (anything `sm_NN` llvmlite knows is accepted); the PTX ISA version feature is
chosen per arch so the output assembles with the nvJitLink that ships alongside.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from llvmlite import binding as llvm

from safekernels.codegen.libdevice import link_libdevice

_TRIPLE = "nvptx64-nvidia-cuda"
_ARCH = re.compile(r"^sm_(\d+)a?$")


@functools.cache
def _init() -> None:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


def ptx_features(arch: str) -> str:
    m = _ARCH.match(arch)
    if m is None:
        raise ValueError(f"unsupported target arch {arch!r} (expected sm_80 .. sm_90)")
    cc = int(m.group(1))
    return "+ptx80" if cc >= 90 else "+ptx78" if cc >= 80 else "+ptx70"


@functools.cache
def target_machine(arch: str) -> llvm.TargetMachine:
    _init()
    target = llvm.Target.from_triple(_TRIPLE)
    return target.create_target_machine(cpu=arch, features=ptx_features(arch), opt=3)


def optimize_and_emit(llvm_ir: str, arch: str, libdevice: Path | None) -> tuple[str, str]:
    """(optimized LLVM IR text, PTX) for `llvm_ir`."""
    tm = target_machine(arch)
    module = llvm.parse_assembly(llvm_ir)
    if libdevice is not None and "__nv_" in llvm_ir:
        link_libdevice(module, libdevice)
    module.verify()
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(module, pb)
    return str(module), tm.emit_assembly(module)
