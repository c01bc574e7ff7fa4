"""safekernels: Python GPU kernels with Rust-grade ownership safety (SPEC §1).

Importing this package is cheap and safe everywhere: it pulls in numpy but neither libcst, mypy, llvmlite nor the
CUDA driver (those load on first use: the checker, codegen, and `Device(0)` respectively).

Host API: `Device`, `Stream`, `DeviceBuffer` and its constructors (`to_device`, `zeros`, `empty`, `as_buffer`),
lazy `DeviceOp`s with `zip`, the error types, and the two kernel tracks as submodules `safekernels.simt` and
`safekernels.tile`.
"""

from safekernels import dtypes
from safekernels.errors import (
    AliasingError,
    BorrowError,
    BrandError,
    DeviceError,
    KernelTrapError,
    SafeKernelsError,
    ShapeError,
    UseAfterMoveError,
)
from safekernels.runtime.buffer import DeviceBuffer, as_buffer, empty, to_device, zeros
from safekernels.runtime.device import Device, Stream, as_stream, gpu_available
from safekernels.runtime.device_op import DeviceOp, SharedDeviceOp
from safekernels.runtime.device_op import zip_ops as zip
from safekernels.runtime.limits import DeviceLimits

__version__ = "0.1.0"

__all__ = [
    "AliasingError",
    "BorrowError",
    "BrandError",
    "Device",
    "DeviceBuffer",
    "DeviceError",
    "DeviceLimits",
    "DeviceOp",
    "KernelTrapError",
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
    "to_device",
    "zeros",
    "zip",
]
