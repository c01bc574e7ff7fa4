"""The SIMT kernel language (docs/simt.md): describe what one thread does.

    @simt.kernel
    @simt.launch_contract(block=256)
    def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
        idx = thread.index_1d()
        i = idx.get()
        if (out := c.get_mut(idx)) is not None:
            out.set(a[i] + b[i])

Kernels run on the GPU through codegen, or thread by thread on the CPU executor (`Device.cpu()`) with the same
semantics.  Importing this package loads neither codegen, llvmlite, libcst, mypy nor the CUDA driver.
See docs/simt.md for the whole language.
"""

from typing import TYPE_CHECKING, Any

from safekernels.runtime.limits import DeviceLimits
from safekernels.simt import thread, warp
from safekernels.simt.config import LaunchConfig, LaunchConfig1D, LaunchConfig2D, LaunchConfig3D
from safekernels.simt.contract import LaunchContract, launch_contract
from safekernels.simt.kernel import (
    PreparedLaunch,
    PreparedLaunchBrandError,
    SimtDeviceFunction,
    SimtKernel,
    device,
    kernel,
)
from safekernels.simt.params import KernelParam
from safekernels.simt.shared_memory import shared_array
from safekernels.simt.types import AtomicSlice, DisjointSlice, ElemMut, SharedArray, Slice, ThreadIndex
from safekernels.simt.unsafe_block import unsafe
from safekernels.simt.validation import FunctionLimits, LaunchContractError

__all__ = [
    "AtomicSlice",
    "AutotunedSimtKernel",
    "DeviceLimits",
    "DisjointSlice",
    "ElemMut",
    "FunctionLimits",
    "KernelParam",
    "LaunchConfig",
    "LaunchConfig1D",
    "LaunchConfig2D",
    "LaunchConfig3D",
    "LaunchContract",
    "LaunchContractError",
    "PreparedLaunch",
    "PreparedLaunchBrandError",
    "SharedArray",
    "SimtDeviceFunction",
    "SimtKernel",
    "Slice",
    "ThreadIndex",
    "autotune",
    "device",
    "kernel",
    "launch_contract",
    "shared_array",
    "thread",
    "unsafe",
    "warp",
]

if TYPE_CHECKING:
    from safekernels.autotune.simt_autotune import AutotunedSimtKernel, autotune


def __getattr__(name: str) -> Any:
    # `simt.autotune` loads on first use (its module builds on `simt.kernel`; importing it here is circular)
    if name in ("autotune", "AutotunedSimtKernel"):
        from safekernels.autotune import simt_autotune

        return getattr(simt_autotune, name)
    raise AttributeError(f"module 'safekernels.simt' has no attribute {name!r}")
