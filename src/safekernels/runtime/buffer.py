"""`DeviceBuffer[T]`: a typed, 1-D run of elements in a device's memory, and the ways to make one.

A buffer is a window (`offset`, `length`) onto an allocation; `view`, slicing and `split_at` make new windows
onto the same allocation without copying.  That is exactly what the launch-time aliasing check needs: two
arguments alias when their byte ranges `[ptr, ptr + nbytes)` intersect, whichever backend they live on.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from safekernels.dtypes import DType, bf16_to_f32, dtype_class, dtype_of, f32_to_bf16
from safekernels.runtime.backend import Allocation, HostAllocation
from safekernels.runtime.device import Device, Stream

T = TypeVar("T")


class ForeignAllocation:
    """Device memory owned by another library (PyTorch, CuPy, JAX); `owner` keeps it alive."""

    __slots__ = ("_nbytes", "_ptr", "owner")

    def __init__(self, ptr: int, nbytes: int, owner: Any) -> None:
        self._ptr = ptr
        self._nbytes = nbytes
        self.owner = owner

    @property
    def ptr(self) -> int:
        return self._ptr

    @property
    def nbytes(self) -> int:
        return self._nbytes


class DeviceBuffer(Generic[T]):
    """`length` elements of `dtype` at element `offset` of `allocation` on `device`."""

    __slots__ = ("__weakref__", "allocation", "device", "dtype", "length", "nbytes", "offset", "ptr")

    def __init__(
        self, device: Device, allocation: Allocation, dtype: DType, offset: int, length: int
    ) -> None:
        self.device = device
        self.allocation = allocation
        self.dtype = dtype
        self.offset = offset
        self.length = length
        # Allocations never move and a buffer's window never changes, so the geometry the launch path reads
        # on every launch (aliasing checks, parameter packing) is computed once here.
        itemsize = dtype.itemsize
        #: Device address of element 0.
        self.ptr: int = allocation.ptr + offset * itemsize
        #: Size of the window in bytes.
        self.nbytes: int = length * itemsize

    # -- geometry -------------------------------------------------------------------------------------------

    @property
    def shape(self) -> tuple[int]:
        return (self.length,)

    @property
    def element_type(self) -> type:
        """The dtype class (`f32`, ...), for code that wants the typing-level name."""
        return dtype_class(self.dtype.name)

    def __len__(self) -> int:
        return self.length

    def overlaps(self, other: DeviceBuffer[Any]) -> bool:
        """True when the two byte ranges intersect (empty buffers overlap nothing)."""
        if self.nbytes == 0 or other.nbytes == 0:
            return False
        return self.ptr < other.ptr + other.nbytes and other.ptr < self.ptr + self.nbytes

    # -- views ----------------------------------------------------------------------------------------------
    def view(self, start: int, stop: int) -> DeviceBuffer[T]:
        """Elements `[start, stop)` as a buffer sharing this one's memory (no copy)."""
        if not (isinstance(start, int) and isinstance(stop, int)):
            raise TypeError("DeviceBuffer.view(start, stop) takes ints")
        if not 0 <= start <= stop <= self.length:
            raise IndexError(f"view [{start}, {stop}) out of range for a buffer of length {self.length}")
        return DeviceBuffer(self.device, self.allocation, self.dtype, self.offset + start, stop - start)

    def __getitem__(self, key: slice) -> DeviceBuffer[T]:
        if not isinstance(key, slice):
            raise TypeError(
                "DeviceBuffer supports only slicing on the host (buf[a:b]); read elements with to_numpy()"
            )
        start, stop, step = key.indices(self.length)
        if step != 1:
            raise ValueError("DeviceBuffer slices must be contiguous (step 1)")
        return self.view(start, max(start, stop))

    def split_at(self, k: int) -> tuple[DeviceBuffer[T], DeviceBuffer[T]]:
        """Two disjoint views `[0, k)` and `[k, len)`: both may be mutable in one launch."""
        if not 0 <= k <= self.length:
            raise IndexError(f"split_at({k}) out of range for a buffer of length {self.length}")
        return self.view(0, k), self.view(k, self.length)

    # -- host transfer --------------------------------------------------------------------------------------
    def to_numpy(self, stream: Stream | None = None) -> npt.NDArray[Any]:
        """Copy to a new host array (waits for the stream).  bf16 comes back as float32 holding bf16
        values."""
        stream = stream if stream is not None else self.device.default_stream
        host = np.empty(self.length, dtype=self.dtype.storage)
        if self.nbytes:
            self.device.backend.copy_to_host(host, self.ptr, stream.handle)
        stream.synchronize()
        return bf16_to_f32(host) if self.dtype.name == "bf16" else host

    def copy_from_numpy(self, array: npt.ArrayLike, stream: Stream | None = None) -> None:
        """Overwrite this buffer with `array` (same length; converted to this buffer's dtype)."""
        host = _host_storage(np.asarray(array), self.dtype)
        if host.size != self.length:
            raise ValueError(f"copy of {host.size} elements into a buffer of length {self.length}")
        stream = stream if stream is not None else self.device.default_stream
        if self.nbytes:
            self.device.backend.copy_from_host(self.ptr, host, stream.handle)
        stream.synchronize()

    def host_view(self) -> npt.NDArray[Any]:
        """CPU executor only: a typed numpy view onto this buffer's memory (writes go to the buffer)."""
        alloc = self.allocation
        if not isinstance(alloc, HostAllocation):
            raise TypeError("host_view() exists only for buffers on Device.cpu()")
        start = self.offset * self.dtype.itemsize
        return alloc.array[start : start + self.nbytes].view(self.dtype.storage)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        if self.device.is_cpu:
            raise AttributeError("__cuda_array_interface__ is only defined for GPU buffers")
        return {
            "shape": (self.length,),
            "typestr": self.dtype.storage.str,
            "data": (self.ptr, False),
            "version": 3,
            "strides": None,
            "stream": None,
        }

    def __dlpack__(
        self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None, copy: Any = None
    ) -> Any:
        """Zero-copy export (`torch.from_dlpack(buf)`, `cupy.from_dlpack(buf)`); the capsule keeps `self`
        alive."""
        if self.device.is_cpu:
            return self.host_view().__dlpack__(stream=stream)
        from safekernels.runtime.interop import DLPackView

        return DLPackView(self).__dlpack__(
            stream=stream, max_version=max_version, dl_device=dl_device, copy=copy
        )

    def __dlpack_device__(self) -> tuple[int, int]:
        if self.device.is_cpu:
            return (1, 0)  # kDLCPU
        from safekernels.runtime.interop import DLPackView

        return DLPackView(self).__dlpack_device__()

    def __repr__(self) -> str:
        return f"DeviceBuffer[{self.dtype}](len={self.length}, device={self.device!r})"


def _host_storage(array: npt.NDArray[Any], dtype: DType) -> npt.NDArray[Any]:
    """`array` flattened and converted to how `dtype` is stored (bf16 rounds to bit patterns)."""
    flat = np.ascontiguousarray(array).reshape(-1)
    if dtype.name == "bf16":
        return flat if flat.dtype == np.uint16 else f32_to_bf16(flat.astype(np.float32))
    return flat.astype(dtype.storage, copy=False)


def _resolve_device(stream: Stream | None, device: Device | None) -> Device:
    if stream is not None:
        if device is not None and device is not stream.device:
            raise ValueError(f"stream belongs to {stream.device!r}, not {device!r}")
        return stream.device
    return device if device is not None else Device.default()


def empty(
    length: int, dtype: Any, stream: Stream | None = None, *, device: Device | None = None
) -> DeviceBuffer[Any]:
    """An uninitialized buffer of `length` elements (zero-filled on the CPU executor)."""
    if not isinstance(length, int) or length < 0:
        raise ValueError(f"length must be a non-negative int, got {length!r}")
    dt = dtype_of(dtype)
    dev = _resolve_device(stream, device)
    allocation = dev.backend.allocate(length * dt.itemsize)
    return DeviceBuffer(dev, allocation, dt, 0, length)


def zeros(
    length: int, dtype: Any, stream: Stream | None = None, *, device: Device | None = None
) -> DeviceBuffer[Any]:
    """A buffer of `length` zeros."""
    buffer = empty(length, dtype, stream, device=device)
    if buffer.nbytes:
        handle = stream.handle if stream is not None else None
        buffer.device.backend.memset_zero(buffer.ptr, buffer.nbytes, handle)
    return buffer


def to_device(
    array: npt.ArrayLike, stream: Stream | None = None, *, dtype: Any = None, device: Device | None = None
) -> DeviceBuffer[Any]:
    """Copy a host array (flattened) to a new buffer; the dtype comes from the array unless `dtype` is
    given."""
    host = np.asarray(array)
    dt = dtype_of(dtype if dtype is not None else host.dtype)
    buffer = empty(host.size, dt, stream, device=device)
    buffer.copy_from_numpy(host, stream)
    return buffer


def as_buffer(obj: Any, device: Device | None = None) -> DeviceBuffer[Any]:
    """Wrap a foreign array without copying: `__cuda_array_interface__` (PyTorch, CuPy, Numba), DLPack,
    numpy.

    The result shares memory with `obj` and keeps it alive; the launch-time aliasing check sees its real
    address range, so passing the same torch tensor as input and output is refused like any other aliasing.
    """
    if isinstance(obj, DeviceBuffer):
        return obj
    interface = getattr(obj, "__cuda_array_interface__", None)
    if interface is not None:
        from safekernels.runtime.interop import buffer_from_cuda_array_interface

        wrapped: DeviceBuffer[Any] = buffer_from_cuda_array_interface(obj, interface, device)
        return wrapped
    if isinstance(obj, np.ndarray):
        return _wrap_host_array(obj)
    if hasattr(obj, "__dlpack__"):
        from safekernels.runtime.interop import buffer_from_dlpack

        imported: DeviceBuffer[Any] = buffer_from_dlpack(obj, device)
        return imported
    raise TypeError(
        f"cannot use {type(obj).__name__} as a buffer: expected safekernels.DeviceBuffer, a numpy array, "
        "or an object with __cuda_array_interface__ or __dlpack__"
    )


def _wrap_host_array(array: npt.NDArray[Any]) -> DeviceBuffer[Any]:
    if not array.flags.c_contiguous:
        raise ValueError("as_buffer needs a C-contiguous array (use numpy.ascontiguousarray first)")
    dt = dtype_of(array.dtype)
    return DeviceBuffer(Device.cpu(), HostAllocation(array.nbytes, wrap=array), dt, 0, array.size)
