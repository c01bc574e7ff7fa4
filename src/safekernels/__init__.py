"""safekernels: Python GPU kernels with Rust-grade ownership safety (docs/reference.md).

Importing this package is cheap and safe everywhere: the public names load lazily (PEP 562), so the ownership
checker can read `safekernels.ownership_model` without pulling in numpy, and nothing here imports libcst, mypy,
llvmlite or the CUDA driver (those load on first use: the checker, codegen, and `Device(0)` respectively).

Host API: `Device`, `Stream`, `DeviceBuffer` and its constructors (`to_device`, `zeros`, `empty`, `as_buffer`),
lazy `DeviceOp`s with `zip`, the error types, and the two kernel tracks as submodules `safekernels.simt` and
`safekernels.tile`.
"""

from __future__ import annotations

from safekernels import safe_sys_path as _safe_sys_path  # noqa: F401  (first: see its docstring)

# isort: split
import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below, for type checkers and editors; at runtime they load on first access
    from safekernels import dtypes, testing
    from safekernels.errors import (
        AliasingError,
        BorrowError,
        BrandError,
        CrossDeviceError,
        DeviceError,
        KernelAssertionError,
        KernelTrapError,
        SafeKernelsError,
        ShapeError,
        UseAfterMoveError,
    )
    from safekernels.prebuilt import PrebuiltError, load_prebuilt
    from safekernels.runtime.buffer import DeviceBuffer, as_buffer, empty, to_device, zeros
    from safekernels.runtime.capture import GraphCaptureError
    from safekernels.runtime.device import Device, Stream, as_stream, gpu_available
    from safekernels.runtime.device_op import DeviceOp, SharedDeviceOp
    from safekernels.runtime.device_op import zip_ops as zip
    from safekernels.runtime.graph import DeviceGraph
    from safekernels.runtime.limits import DeviceLimits

#: public name -> (module, attribute in that module); `None` attribute means the module itself
_LAZY: dict[str, tuple[str, str | None]] = {
    "dtypes": ("safekernels.dtypes", None),
    "testing": ("safekernels.testing", None),
    **{
        name: ("safekernels.errors", name)
        for name in (
            "AliasingError",
            "BorrowError",
            "BrandError",
            "CrossDeviceError",
            "DeviceError",
            "KernelAssertionError",
            "KernelTrapError",
            "SafeKernelsError",
            "ShapeError",
            "UseAfterMoveError",
        )
    },
    **{
        name: ("safekernels.runtime.buffer", name)
        for name in ("DeviceBuffer", "as_buffer", "empty", "to_device", "zeros")
    },
    **{name: ("safekernels.runtime.device", name) for name in ("Device", "Stream", "as_stream", "gpu_available")},
    "DeviceOp": ("safekernels.runtime.device_op", "DeviceOp"),
    "load_prebuilt": ("safekernels.prebuilt", "load_prebuilt"),
    "PrebuiltError": ("safekernels.prebuilt", "PrebuiltError"),
    "SharedDeviceOp": ("safekernels.runtime.device_op", "SharedDeviceOp"),
    "zip": ("safekernels.runtime.device_op", "zip_ops"),
    "DeviceLimits": ("safekernels.runtime.limits", "DeviceLimits"),
    "DeviceGraph": ("safekernels.runtime.graph", "DeviceGraph"),
    "GraphCaptureError": ("safekernels.runtime.capture", "GraphCaptureError"),
}


def __getattr__(name: str) -> Any:
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'safekernels' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value  # later accesses skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "AliasingError",
    "BorrowError",
    "BrandError",
    "CrossDeviceError",
    "Device",
    "DeviceBuffer",
    "DeviceError",
    "DeviceGraph",
    "DeviceLimits",
    "DeviceOp",
    "GraphCaptureError",
    "KernelAssertionError",
    "KernelTrapError",
    "PrebuiltError",
    "SafeKernelsError",
    "ShapeError",
    "SharedDeviceOp",
    "Stream",
    "UseAfterMoveError",
    "__version__",
    "as_buffer",
    "as_stream",
    "dtypes",
    "empty",
    "gpu_available",
    "load_prebuilt",
    "testing",
    "to_device",
    "zeros",
    "zip",
]
