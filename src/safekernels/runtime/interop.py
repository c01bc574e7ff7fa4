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
from safekernels.errors import CrossDeviceError, DeviceError

if TYPE_CHECKING:
    from safekernels.runtime.buffer import DeviceBuffer

_KDL_CPU = 1
_KDL_CUDA = 2
_KDL_CUDA_HOST = 3
_KDL_CUDA_MANAGED = 13
# DLPack dtype codes (DLPack 1.1 adds the 8-bit floats: e4m3fn = 10, e5m2 = 12)
_KDL_INT, _KDL_UINT, _KDL_FLOAT, _KDL_BFLOAT, _KDL_BOOL = 0, 1, 2, 4, 6
_KDL_FLOAT8_E4M3FN, _KDL_FLOAT8_E5M2 = 10, 12


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


class _CapsuleApi:
    """Private prototypes of the C API's capsule functions.

    Setting `argtypes` on the shared `ctypes.pythonapi.PyCapsule_*` objects would be changed back under us by
    any other library in the process that sets its own (`jax.ffi.pycapsule` does, which broke this module's
    DLPack export), and would change them for that library too; a prototype of our own is ours alone."""

    _capsule_name = (ctypes.py_object, ctypes.c_char_p)

    def __init__(self) -> None:
        api = ctypes.pythonapi
        self.PyCapsule_IsValid = ctypes.PYFUNCTYPE(ctypes.c_int, *self._capsule_name)(("PyCapsule_IsValid", api))
        self.PyCapsule_GetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, *self._capsule_name)(
            ("PyCapsule_GetPointer", api)
        )
        self.PyCapsule_SetName = ctypes.PYFUNCTYPE(ctypes.c_int, *self._capsule_name)(("PyCapsule_SetName", api))
        self.PyCapsule_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
            ("PyCapsule_New", api)
        )


_api = _CapsuleApi()


def _gpu_device(ordinal: int) -> Any:
    from safekernels.runtime.device import _gpu_device as cached

    return cached(ordinal)


def _device_for_pointer(ptr: int, device: Any) -> Any:
    """The GPU that owns `ptr`, asked through `device`'s driver (no other GPU is opened to ask); an array on
    another GPU than the `device` it is wrapped for is a `CrossDeviceError`, never a buffer of the wrong device."""
    if device is not None and device.is_cpu:
        raise ValueError("a CUDA array cannot be used on the CPU executor (copy it to the host first)")
    base = device if device is not None else _gpu_device(0)
    query = getattr(base.backend, "pointer_device_ordinal", None)
    if not ptr or query is None:
        return base
    try:
        ordinal = query(ptr)
    except DeviceError:  # memory the driver does not know (an exporter's own allocator): trust the caller
        if device is not None:
            return device
        raise
    if ordinal == base.ordinal:
        return base
    if device is not None:
        raise CrossDeviceError(f"the array lives on {_gpu_device(ordinal)!r}, not {device!r}")
    return _gpu_device(ordinal)


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


def _is_index(value: Any) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _interface_fields(obj: Any, interface: Any) -> tuple[int, bool, tuple[int, ...], Any, tuple[int, ...] | None]:
    """(pointer, read-only, shape, numpy dtype, strides) of a `__cuda_array_interface__`, or `TypeError` /
    `ValueError` naming the field that is missing or malformed (never a KeyError from a bad exporter)."""
    what = f"__cuda_array_interface__ of {type(obj).__name__}"
    if not isinstance(interface, dict):
        raise TypeError(f"{what}: expected a dict, got {type(interface).__name__}")
    missing = [key for key in ("data", "shape", "typestr") if key not in interface]
    if missing:
        raise TypeError(f"{what}: missing {', '.join(repr(k) for k in missing)} (required by the protocol)")
    data = interface["data"]
    if not (isinstance(data, tuple | list) and len(data) == 2 and (data[0] is None or _is_index(data[0]))):
        raise TypeError(f"{what}: 'data' must be (pointer, read_only), got {data!r:.80}")
    ptr = int(data[0] or 0)
    if not 0 <= ptr < 1 << 64:
        raise ValueError(f"{what}: pointer {ptr} is not a 64-bit address")
    shape = interface["shape"]
    if not (isinstance(shape, tuple | list) and all(_is_index(d) and int(d) >= 0 for d in shape)):
        raise TypeError(f"{what}: 'shape' must be a tuple of non-negative ints, got {shape!r:.80}")
    typestr = interface["typestr"]
    if not isinstance(typestr, str):
        raise TypeError(f"{what}: 'typestr' must be a string, got {typestr!r:.80}")
    try:
        np_dtype = np.dtype(typestr)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{what}: 'typestr' {typestr!r:.40} is not an array type ({exc})") from None
    strides = interface.get("strides")
    if strides is not None and not (
        isinstance(strides, tuple | list) and len(strides) == len(shape) and all(_is_index(x) for x in strides)
    ):
        raise TypeError(f"{what}: 'strides' must be None or one int per dimension, got {strides!r:.80}")
    stream = interface.get("stream")
    if stream is not None and not _is_index(stream):
        raise TypeError(f"{what}: 'stream' must be None or an int, got {stream!r:.80}")
    return (
        ptr,
        bool(data[1]),
        tuple(int(d) for d in shape),
        np_dtype,
        tuple(int(x) for x in strides) if strides is not None else None,
    )


def buffer_from_cuda_array_interface(
    obj: Any, interface: dict[str, Any], device: Any = None
) -> DeviceBuffer[Any]:
    """Wrap an object exposing `__cuda_array_interface__` (v2/v3) as a DeviceBuffer sharing its memory.

    A malformed interface (a missing `data`, `shape` or `typestr`, wrong types) is a `TypeError` naming the
    field."""
    from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation

    ptr, readonly, shape, np_dtype, strides = _interface_fields(obj, interface)
    dt: DType = dtype_of(np_dtype)
    count = _contiguous_count(shape, strides, np_dtype.itemsize)
    dev = _device_for_pointer(ptr, device)
    stream = interface.get("stream")
    if stream not in (None, 0):  # v3: wait for the producer's stream before using the data
        from safekernels.runtime.cuda_backend import _driver, check

        check(_driver().cuStreamSynchronize(_driver().CUstream(int(stream))), "cuStreamSynchronize")
    alloc = ForeignAllocation(ptr, count * dt.itemsize, obj, read_only=readonly)
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
    if code == _KDL_FLOAT8_E4M3FN and bits == 8:
        return dtype_of("f8e4m3")
    if code == _KDL_FLOAT8_E5M2 and bits == 8:
        return dtype_of("f8e5m2")
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


def _host_bytes(ptr: int, nbytes: int, owner: Any) -> np.ndarray[Any, Any]:
    """A writable numpy byte view of `nbytes` of host memory at `ptr`; `owner` rides along and keeps it alive."""
    raw = (ctypes.c_uint8 * nbytes).from_address(ptr) if nbytes else (ctypes.c_uint8 * 0)()
    raw.owner = owner  # type: ignore[attr-defined]  # ctypes arrays take attributes: the view keeps it
    return np.ctypeslib.as_array(raw)


def _host_buffer(ptr: int, count: int, dt: DType, owner: Any, device: Any) -> DeviceBuffer[Any]:
    """A CPU-executor buffer over another library's host memory (no copy)."""
    from safekernels.runtime.backend import HostAllocation
    from safekernels.runtime.buffer import DeviceBuffer
    from safekernels.runtime.device import Device

    if device is not None and not device.is_cpu:
        raise ValueError(
            f"the array is in host memory; it cannot be a buffer on {device!r} (copy it to the GPU first)"
        )
    data = _host_bytes(ptr, count * dt.itemsize, owner).view(dt.storage)
    return DeviceBuffer(Device.cpu(), HostAllocation(data.nbytes, wrap=data), dt, 0, count)


def buffer_from_dlpack(obj: Any, device: Any = None) -> DeviceBuffer[Any]:
    """Wrap an object exposing `__dlpack__` (CUDA or host memory, C-contiguous) as a DeviceBuffer sharing its
    memory: a GPU buffer for CUDA memory, a CPU-executor buffer for host memory."""
    from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation

    device_of = getattr(obj, "__dlpack_device__", None)
    if not callable(device_of):
        raise TypeError(
            f"{type(obj).__name__} has __dlpack__ but no __dlpack_device__: the DLPack protocol needs both "
            "(the device says whether the memory is on the GPU or the host)"
        )
    where = device_of()
    if not (isinstance(where, tuple | list) and len(where) == 2 and all(_is_index(x) for x in where)):
        raise TypeError(f"{type(obj).__name__}.__dlpack_device__() must return (device_type, device_id), "
                        f"got {where!r:.80}")
    dev_type, dev_id = where
    if int(dev_type) not in (_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED):
        raise TypeError(f"DLPack device type {int(dev_type)} is neither CUDA nor host memory")
    on_host = int(dev_type) in (_KDL_CPU, _KDL_CUDA_HOST)
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
    if on_host:
        return _host_buffer(ptr, count, dt, owner, device)
    if device is not None and device.is_cpu:
        raise ValueError("a CUDA array cannot be used on the CPU executor (copy it to the host first)")
    if device is not None and device.ordinal == int(dev_id):
        dev = device
    else:  # the capsule says where its memory is
        dev = _gpu_device(int(dev_id))
        if device is not None:
            raise CrossDeviceError(f"the array lives on {dev!r}, not {device!r}")
    return DeviceBuffer(dev, ForeignAllocation(ptr, count * dt.itemsize, owner), dt, 0, count)


# -- torch tensors, read directly --------------------------------------------------------------------------
#: torch dtype name -> safekernels dtype name: every element type both sides have
TORCH_DTYPE_NAMES: dict[str, str] = {
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
    "float8_e4m3fn": "f8e4m3",
    "float8_e5m2": "f8e5m2",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "bool": "bool",
}
_TORCH_DTYPES: dict[Any, DType] = {}  # torch.dtype object -> DType, filled on first sight of each


def torch_element_type(torch_dtype: Any, what: str) -> DType:
    """The safekernels dtype of a torch dtype; TypeError naming it when there is none (complex, fp8 fnuz...)."""
    found = _TORCH_DTYPES.get(torch_dtype)
    if found is None:
        name = TORCH_DTYPE_NAMES.get(str(torch_dtype).removeprefix("torch."))
        if name is None:
            raise TypeError(f"{what}: torch dtype {torch_dtype} has no safekernels element type")
        found = _TORCH_DTYPES[torch_dtype] = dtype_of(name)
    return found


def is_torch_tensor(obj: Any) -> bool:
    """True for a plain `torch.Tensor` or `nn.Parameter` (torch imported already; subclasses may redefine
    their memory, so they take the generic interfaces)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    t = type(obj)
    return t is getattr(torch, "Tensor", None) or t is getattr(getattr(torch, "nn", None), "Parameter", None)


def buffer_from_torch(tensor: Any, device: Any = None, what: str = "as_buffer") -> DeviceBuffer[Any]:
    """A zero-copy buffer over a contiguous torch tensor of any element type, read from the tensor itself.

    Neither `__cuda_array_interface__` (no typestr for bf16 and the 8-bit floats) nor DLPack (a capsule per
    call) is needed: the address, element count, dtype and device are the tensor's own, and the tensor is the
    allocation's owner.  CUDA tensors give GPU buffers, CPU tensors CPU-executor buffers.
    """
    from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation

    dt = torch_element_type(tensor.dtype, what)
    if not tensor.is_contiguous():
        raise ValueError(f"{what}: safekernels kernels take contiguous tensors (call .contiguous() first)")
    count = tensor.numel()
    where = tensor.device
    if where.type == "cuda":
        dev = _gpu_device(where.index or 0)
        if device is not None and device is not dev:
            if device.is_cpu:
                raise ValueError(f"{what}: a CUDA tensor cannot be used on the CPU executor (copy it to the host)")
            raise CrossDeviceError(f"{what}: the tensor lives on {dev!r}, not {device!r}")
        return DeviceBuffer(dev, ForeignAllocation(tensor.data_ptr(), count * dt.itemsize, tensor), dt, 0, count)
    if where.type == "cpu":
        return _host_buffer(tensor.data_ptr(), count, dt, tensor, device)
    raise TypeError(f"{what}: safekernels runs on CUDA or on the CPU executor; the tensor is on {where}")


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
    try:  # (a consumer that refused the capsule leaves its error pending: then nothing here can run)
        obj = ctypes.cast(capsule, ctypes.py_object)
        if _api.PyCapsule_IsValid(obj, b"dltensor"):
            address = _api.PyCapsule_GetPointer(obj, b"dltensor")
            with _EXPORTS_LOCK:
                _EXPORTS.pop(int(address), None)
    except Exception:
        pass


_capsule_destructor = _CAPSULE_DESTRUCTOR(_capsule_destructor_impl)

_DL_CODES = {"i": _KDL_INT, "u": _KDL_UINT, "f": _KDL_FLOAT, "b": _KDL_BOOL}
_DL_ENCODED = {"bf16": _KDL_BFLOAT, "f8e4m3": _KDL_FLOAT8_E4M3FN, "f8e5m2": _KDL_FLOAT8_E5M2}


def _dl_device(buffer: Any) -> tuple[int, int]:
    return (_KDL_CPU, 0) if buffer.device.is_cpu else (_KDL_CUDA, buffer.device.ordinal or 0)


def to_dlpack(buffer: Any) -> Any:
    """A DLPack capsule (legacy `dltensor`) viewing `buffer` (GPU memory, or host memory of the CPU
    executor); keeps the buffer alive until deleted."""
    buffer._check_alive("to_dlpack")
    dt: DType = buffer.dtype
    shape = (ctypes.c_int64 * 1)(buffer.length)
    managed = _DLManagedTensor()
    managed.dl_tensor.data = buffer.ptr
    managed.dl_tensor.device = _DLDevice(*_dl_device(buffer))
    managed.dl_tensor.ndim = 1
    code = _DL_ENCODED.get(dt.name, _DL_CODES[dt.kind])
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
        if stream not in (None, -1) and not self.buffer.device.is_cpu:
            self.buffer.device.synchronize()
        return to_dlpack(self.buffer)

    def __dlpack_device__(self) -> tuple[int, int]:
        return _dl_device(self.buffer)
