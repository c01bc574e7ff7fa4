"""The small interface every execution backend implements (CPU executor, CUDA driver).

`Device` and `DeviceBuffer` only talk to a backend through this protocol, so the CPU executor is a drop-in for
the GPU: the same buffers, the same aliasing checks (they compare real address ranges on both backends), the same
launches.  The CUDA implementation lives in `runtime.cuda_backend` and is imported only when a GPU device is made,
which keeps `import safekernels` free of the driver.
"""

from __future__ import annotations

import ctypes
import functools
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from safekernels.runtime import capture


class Allocation(Protocol):
    """A block of device memory.  `ptr` is its device address; it is freed when the object is collected."""

    @property
    def ptr(self) -> int: ...

    @property
    def nbytes(self) -> int: ...


class Backend(Protocol):
    """What a device can do.  Stream handles are opaque to callers (`None`/0 means the default stream)."""

    name: str  # "cpu" or "cuda"

    def allocate(self, nbytes: int) -> Allocation: ...

    def copy_from_host(self, dst_ptr: int, src: npt.NDArray[Any], stream: Any) -> None: ...

    def copy_to_host(self, dst: npt.NDArray[Any], src_ptr: int, stream: Any) -> None: ...

    def copy_device(self, dst_ptr: int, src_ptr: int, nbytes: int, stream: Any) -> None: ...

    def memset_zero(self, ptr: int, nbytes: int, stream: Any) -> None: ...

    def new_stream(self) -> Any: ...

    def synchronize(self, stream: Any) -> None: ...


class HostAllocation:
    """CPU-executor memory: a numpy byte array whose address plays the device pointer."""

    __slots__ = ("array", "owner")

    def __init__(self, nbytes: int, *, wrap: npt.NDArray[Any] | None = None) -> None:
        if wrap is not None:
            # A foreign host array (`as_buffer(numpy_array)`): share its memory, keep it alive.
            self.array = wrap.reshape(-1).view(np.uint8)
            self.owner: Any = wrap
            return
        # 256-byte alignment like cudaMalloc, so vector-width reasoning matches the GPU.
        raw = np.zeros(nbytes + 256, dtype=np.uint8)
        offset = (-raw.ctypes.data) % 256
        self.array = raw[offset : offset + nbytes]
        self.owner = raw

    @property
    def ptr(self) -> int:
        return int(self.array.ctypes.data)

    @property
    def nbytes(self) -> int:
        return int(self.array.nbytes)

    @property
    def read_only(self) -> bool:
        """A wrapped array numpy says is not writeable (`np.frombuffer(bytes)`): never written through."""
        return not self.array.flags.writeable


class CpuBackend:
    """Backend of `Device.cpu()`: memory is host memory, streams execute eagerly in program order.

    Device pointers are real host addresses, so copies are plain `memmove`s and the launch-time overlap check
    compares the same kind of address ranges it compares on the GPU.
    """

    name = "cpu"

    def allocate(self, nbytes: int) -> HostAllocation:
        allocation = HostAllocation(nbytes)
        if (cap := capture.active()) is not None:
            cap.allocated(allocation)
        return allocation

    def copy_from_host(self, dst_ptr: int, src: npt.NDArray[Any], stream: Any) -> None:
        contiguous = np.ascontiguousarray(src)
        if (cap := capture.active()) is not None and not cap.fill_now(dst_ptr, contiguous.nbytes):
            raise cap.refuse_host_copy(contiguous.nbytes)
        ctypes.memmove(dst_ptr, contiguous.ctypes.data, contiguous.nbytes)

    def copy_to_host(self, dst: npt.NDArray[Any], src_ptr: int, stream: Any) -> None:
        assert dst.flags.c_contiguous
        if (cap := capture.active()) is not None:
            raise cap.refuse_host_read()
        ctypes.memmove(dst.ctypes.data, src_ptr, dst.nbytes)

    def copy_device(self, dst_ptr: int, src_ptr: int, nbytes: int, stream: Any) -> None:
        capture.cpu_launch(ctypes.memmove, dst_ptr, src_ptr, nbytes)

    def memset_zero(self, ptr: int, nbytes: int, stream: Any) -> None:
        if (cap := capture.active()) is not None and not cap.fill_now(ptr, nbytes):
            cap.record(functools.partial(ctypes.memset, ptr, 0, nbytes))
            return
        ctypes.memset(ptr, 0, nbytes)

    def new_stream(self) -> Any:
        return None

    def synchronize(self, stream: Any) -> None:
        if (cap := capture.active()) is not None:
            cap.synchronize()
