"""Zero-copy interop with PyTorch, CuPy, JAX, Numba: `__cuda_array_interface__` and DLPack, both directions.

In: `sk.as_buffer(t)` wraps the foreign memory as a `DeviceBuffer` (a `ForeignAllocation` keeps the owner
alive), so torch/CuPy tensors are kernel arguments without copies and the launch-time overlap check sees their
real address ranges.  Only C-contiguous arrays are accepted (a kernel sees a flat run of elements).

Out: `DeviceBuffer.__cuda_array_interface__` (torch.as_tensor, cupy.asarray, numba) and `to_dlpack(buffer)` /
`DLPackView(buffer)` (anything with `from_dlpack`), which hands out a DLPack capsule that keeps the buffer
alive until the consumer calls its deleter.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from safekernels.dtypes import DType, dtype_of

if TYPE_CHECKING:
    from safekernels.runtime.buffer import DeviceBuffer

_KDL_CUDA = 2
_KDL_CUDA_MANAGED = 13
# DLPack dtype codes
_KDL_INT, _KDL_UINT, _KDL_FLOAT, _KDL_BFLOAT, _KDL_BOOL = 0, 1, 2, 4, 6


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class _DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor))
_DLManagedTensor._fields_ = [
    ("dl_tensor", _DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", _DELETER),
]

_api = ctypes.pythonapi
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


def _gpu_device(ordinal: int) -> Any:
    from safekernels.runtime.device import _gpu_device as cached

    return cached(ordinal)


def _device_for_pointer(ptr: int, device: Any) -> Any:
    if device is not None:
        if device.is_cpu:
            raise ValueError("a CUDA array cannot be used on the CPU executor (copy it to the host first)")
        return device
    base = _gpu_device(0)
    ordinal = base.backend.pointer_device_ordinal(ptr) if ptr else 0
    return base if ordinal == 0 else _gpu_device(ordinal)


def _contiguous_count(shape: tuple[int, ...], strides: tuple[int, ...] | None, itemsize: int) -> int:
    count = 1
    for dim in shape:
        count *= int(dim)
    if strides is None or count <= 1:
        return count
    expected = itemsize
    for dim, stride in zip(reversed(shape), reversed(strides), strict=True):
        if dim != 1 and stride != expected:
            raise ValueError("only C-contiguous arrays can be kernel buffers (make a contiguous copy first)")
        expected *= dim
    return count


def buffer_from_cuda_array_interface(
    obj: Any, interface: dict[str, Any], device: Any = None
) -> DeviceBuffer[Any]:
    """Wrap an object exposing `__cuda_array_interface__` (v2/v3) as a DeviceBuffer sharing its memory."""
    from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation

    ptr, readonly = interface["data"]
    shape = tuple(int(d) for d in interface["shape"])
    np_dtype = np.dtype(interface["typestr"])
    dt: DType = dtype_of(np_dtype)
    strides = interface.get("strides")
    count = _contiguous_count(shape, tuple(strides) if strides is not None else None, np_dtype.itemsize)
    dev = _device_for_pointer(int(ptr or 0), device)
    stream = interface.get("stream")
    if stream not in (None, 0):  # v3: wait for the producer's stream before using the data
        from safekernels.runtime.cuda_backend import _driver, check

        check(_driver().cuStreamSynchronize(_driver().CUstream(int(stream))), "cuStreamSynchronize")
    alloc = ForeignAllocation(int(ptr or 0), count * dt.itemsize, obj, read_only=bool(readonly))
    return DeviceBuffer(dev, alloc, dt, 0, count)


def _torch_fingerprint(tensor: Any) -> tuple[Any, ...]:
    # Everything `buffer_from_cuda_array_interface` reads from a torch tensor's interface (v2, no stream):
    # address, element count, dtype (-> typestr), contiguity (-> strides), and what makes torch refuse to
    # export it.  Equal fingerprints on the same object give the same wrapping.
    return (
        tensor.data_ptr(),
        tensor.numel(),
        tensor.dtype,
        tensor.is_contiguous(),
        tensor.requires_grad,
        tensor.is_cuda,
    )


def wrap_fingerprint(obj: Any) -> Any:
    """For a foreign array whose `as_buffer` wrapping is a pure function of a cheap fingerprint of the same
    object, the fingerprint function; else None.

    The launch fast path caches a wrapping per object (identity, weakly held) and reuses it while the
    object's fingerprint is unchanged, instead of re-reading `__cuda_array_interface__` on every launch.
    Only plain `torch.Tensor`s qualify (subclasses may override the interface), and only when their
    interface names no stream: a v3 `stream` makes every wrapping synchronize that stream, which a cache
    would skip.
    """
    torch = sys.modules.get("torch")
    if torch is None or type(obj) is not getattr(torch, "Tensor", None):
        return None
    try:
        interface = obj.__cuda_array_interface__
    except Exception:
        return None
    if not isinstance(interface, dict) or interface.get("stream") not in (None, 0):
        return None
    return _torch_fingerprint


def _dtype_from_dl(code: int, bits: int, lanes: int) -> DType:
    if lanes != 1:
        raise TypeError("vector DLPack dtypes are not supported")
    if code == _KDL_BFLOAT and bits == 16:
        return dtype_of("bf16")
    if code == _KDL_BOOL or (code == _KDL_UINT and bits == 1):
        return dtype_of("bool")
    prefix = {_KDL_INT: "i", _KDL_UINT: "u", _KDL_FLOAT: "f"}.get(code)
    if prefix is None:
        raise TypeError(f"unsupported DLPack dtype code {code}")
    return dtype_of(f"{prefix}{bits}")


class _CapsuleOwner:
    """Keeps an imported DLPack tensor alive; calls its deleter when the DeviceBuffer is collected."""

    def __init__(self, source: Any, capsule: Any, managed: int) -> None:
        self.source = source
        self.capsule = capsule
        self.managed = managed

    def __del__(self) -> None:
        try:
            tensor = ctypes.cast(self.managed, ctypes.POINTER(_DLManagedTensor))
            deleter = tensor.contents.deleter
            if deleter:
                deleter(tensor)
        except Exception:
            pass


def buffer_from_dlpack(obj: Any, device: Any = None) -> DeviceBuffer[Any]:
    """Wrap an object exposing `__dlpack__` (CUDA memory, C-contiguous) as a DeviceBuffer sharing its
    memory."""
    from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation

    dev_type, dev_id = obj.__dlpack_device__()
    if int(dev_type) not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        raise TypeError(f"DLPack device type {int(dev_type)} is not CUDA memory")
    try:
        capsule = obj.__dlpack__(stream=None)
    except TypeError:
        capsule = obj.__dlpack__()
    if not _api.PyCapsule_IsValid(capsule, b"dltensor"):
        raise TypeError("object returned a DLPack capsule that was already consumed or is not a dltensor")
    managed = _api.PyCapsule_GetPointer(capsule, b"dltensor")
    _api.PyCapsule_SetName(capsule, b"used_dltensor")
    owner = _CapsuleOwner(obj, capsule, managed)
    t = ctypes.cast(managed, ctypes.POINTER(_DLManagedTensor)).contents.dl_tensor
    dt = _dtype_from_dl(t.dtype.code, t.dtype.bits, t.dtype.lanes)
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] * dt.itemsize for i in range(t.ndim)) if t.strides else None
    count = _contiguous_count(shape, strides, dt.itemsize)
    ptr = int(t.data or 0) + int(t.byte_offset)
    dev = device if device is not None else _gpu_device(int(dev_id))
    return DeviceBuffer(dev, ForeignAllocation(ptr, count * dt.itemsize, owner), dt, 0, count)


# -- export ------------------------------------------------------------------------------------------------
_EXPORTS: dict[int, tuple[Any, Any, Any]] = {}  # address of DLManagedTensor -> (struct, shape, buffer)
_EXPORTS_LOCK = threading.Lock()


def _export_deleter_impl(managed: Any) -> None:
    address = ctypes.cast(managed, ctypes.c_void_p).value or 0
    with _EXPORTS_LOCK:
        _EXPORTS.pop(address, None)


_export_deleter = _DELETER(_export_deleter_impl)
_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _capsule_destructor_impl(capsule: int) -> None:
    # Called when a capsule is collected.  A consumer renames it to "used_dltensor" and owns the deleter then;
    # an unconsumed "dltensor" capsule must free itself here.
    obj = ctypes.cast(capsule, ctypes.py_object)
    try:
        if _api.PyCapsule_IsValid(obj, b"dltensor"):
            address = _api.PyCapsule_GetPointer(obj, b"dltensor")
            with _EXPORTS_LOCK:
                _EXPORTS.pop(int(address), None)
    except Exception:
        pass


_capsule_destructor = _CAPSULE_DESTRUCTOR(_capsule_destructor_impl)

_DL_CODES = {"i": _KDL_INT, "u": _KDL_UINT, "f": _KDL_FLOAT, "b": _KDL_BOOL}


def to_dlpack(buffer: Any) -> Any:
    """A DLPack capsule (legacy `dltensor`) viewing `buffer`; keeps the buffer alive until deleted."""
    if buffer.device.is_cpu:
        raise TypeError("to_dlpack exports GPU buffers only (use to_numpy on the CPU executor)")
    dt: DType = buffer.dtype
    shape = (ctypes.c_int64 * 1)(buffer.length)
    managed = _DLManagedTensor()
    managed.dl_tensor.data = buffer.ptr
    managed.dl_tensor.device = _DLDevice(_KDL_CUDA, buffer.device.ordinal or 0)
    managed.dl_tensor.ndim = 1
    code = _KDL_BFLOAT if dt.name == "bf16" else _DL_CODES[dt.kind]
    managed.dl_tensor.dtype = _DLDataType(code, dt.bits, 1)
    managed.dl_tensor.shape = shape
    managed.dl_tensor.strides = None
    managed.dl_tensor.byte_offset = 0
    managed.manager_ctx = None
    managed.deleter = _export_deleter
    address = ctypes.addressof(managed)
    with _EXPORTS_LOCK:
        _EXPORTS[address] = (managed, shape, buffer)
    return _api.PyCapsule_New(address, b"dltensor", ctypes.cast(_capsule_destructor, ctypes.c_void_p))


class DLPackView:
    """`torch.from_dlpack(DLPackView(buf))` / `cupy.from_dlpack(...)`: a zero-copy view of a DeviceBuffer."""

    def __init__(self, buffer: Any) -> None:
        self.buffer = buffer

    def __dlpack__(
        self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None, copy: Any = None
    ) -> Any:
        if stream not in (None, -1):
            self.buffer.device.synchronize()
        return to_dlpack(self.buffer)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (_KDL_CUDA, self.buffer.device.ordinal or 0)
