"""`DeviceBuffer[T]`: a typed, 1-D run of elements in a device's memory, and the ways to make one.

A buffer is a window (`offset`, `length`) onto an allocation; `view`, slicing and `split_at` make new windows
onto the same allocation without copying.  That is exactly what the launch-time aliasing check needs: two
arguments alias when their byte ranges `[ptr, ptr + nbytes)` intersect, whichever backend they live on.

A buffer is also `Movable` (docs/reference.md "What moves", docs/interop.md): `buf.partition(tile_shape)`,
`buf.to(device, stream)` (docs/devices.md) and passing `buf` to a tile launch move it, like a tile `Tensor`.
After that every use of the old handle (`to_numpy`, `view`, slicing, `copy_from_numpy`, a SIMT launch on either
launch path, `as_buffer`, another tile launch) raises `UseAfterMoveError` naming the variable and the line of
the move.  Two rules keep the story sound:

- *views borrow their parent*: moving a buffer invalidates every view made from it (`view`, slicing,
  `split_at`, recursively), and a view itself cannot be moved (`BorrowError`: move the owner instead);
- *a pending `launch_async` borrows*: moving memory that a pending op still borrows raises `BorrowError` worded
  like rustc's E0505 ("cannot move out of `c` because it is borrowed"), from `simt.borrows`' records.
"""

from __future__ import annotations

import os
import sys
import weakref
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar, overload

import numpy as np
import numpy.typing as npt

from safekernels.dtypes import (
    DType,
    ScalarType,
    bool_,
    dtype_class,
    dtype_of,
    f16,
    f32,
    f64,
    from_f32,
    i8,
    i16,
    i32,
    i64,
    is_encoded,
    to_f32,
    u8,
    u16,
    u32,
    u64,
)
from safekernels.errors import BorrowError, UseAfterMoveError
from safekernels.runtime.backend import Allocation, HostAllocation
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.ownership import Movable, MoveSite, _user_frame

if TYPE_CHECKING:
    from safekernels.tile.tensor import Partition

T = TypeVar("T")
#: A dtype class (`f32`, `i64`, ...) given as `dtype`: the buffer is typed `DeviceBuffer[that class]` for mypy.
S = TypeVar("S", bound=ScalarType)
# One type variable per numpy element type, bound to it, for `to_device`'s overloads.  A bound type variable, not
# the type itself: an argument such as `np.ones(n, dtype=np.float32)` is inferred in each overload's context, and
# numpy's width aliases (`float32 = floating[_32Bit]`) would let it match the first float overload whatever its
# width; a type variable is solved from the argument's own type and then checked against the bound.
_F16 = TypeVar("_F16", bound=np.float16)
_F32 = TypeVar("_F32", bound=np.float32)
_F64 = TypeVar("_F64", bound=np.float64)
_I8 = TypeVar("_I8", bound=np.int8)
_I16 = TypeVar("_I16", bound=np.int16)
_I32 = TypeVar("_I32", bound=np.int32)
_I64 = TypeVar("_I64", bound=np.int64)
_U8 = TypeVar("_U8", bound=np.uint8)
_U16 = TypeVar("_U16", bound=np.uint16)
_U32 = TypeVar("_U32", bound=np.uint32)
_U64 = TypeVar("_U64", bound=np.uint64)
_BOOL = TypeVar("_BOOL", bound=np.bool_)
_G = TypeVar("_G", bound=np.generic)
#: The untyped spellings of a dtype (`"f32"`, a `DType`, a numpy dtype): the buffer is `DeviceBuffer[Any]`.  Not
#: `Any`, and not Python's `float`/`int`/`bool` (accepted at run time): a dtype class such as `f16` is a `float`
#: subclass, and mypy would fall back to this overload when the typed one disagrees with the call's context,
#: hiding exactly the mismatch the typed one exists to report.
DTypeName: TypeAlias = str | DType | np.dtype[Any] | type[np.generic]
_Host = np.ndarray[Any, np.dtype[_G]]


class ForeignAllocation:
    """Device memory owned by another library (PyTorch, CuPy, JAX); `owner` keeps it alive.

    `read_only` is the exporter's own flag (`__cuda_array_interface__`'s `data[1]`): no kernel may write it.
    """

    __slots__ = ("_nbytes", "_ptr", "owner", "read_only")

    def __init__(self, ptr: int, nbytes: int, owner: Any, *, read_only: bool = False) -> None:
        self._ptr = ptr
        self._nbytes = nbytes
        self.owner = owner
        self.read_only = read_only

    @property
    def ptr(self) -> int:
        return self._ptr

    @property
    def nbytes(self) -> int:
        return self._nbytes


class DeviceBuffer(Movable, Generic[T]):
    """`length` elements of `dtype` at element `offset` of `allocation` on `device`.

    Movable: `partition` and tile launches move it (see the module doc); `_parent` is the value a view borrows
    (a buffer, or the tile `Tensor` of `as_buffer(tensor)`), `_views` the live views made from this one.
    """

    # `Movable` has no `__slots__`, so instances also carry an (unused, lazily created) `__dict__` and a
    # `__weakref__`; the hot attributes are slots all the same.
    __slots__ = (
        "_moved",
        "_moved_via",
        "_parent",
        "_views",
        "allocation",
        "device",
        "dtype",
        "length",
        "nbytes",
        "offset",
        "ptr",
        "read_only",
    )

    def __init__(
        self, device: Device, allocation: Allocation, dtype: DType, offset: int, length: int
    ) -> None:
        self._moved: MoveSite | None = None
        self._moved_via: str | None = None  # set when invalidated because the value it views moved
        self._parent: object | None = None
        self._views: weakref.WeakSet[DeviceBuffer[Any]] | None = None
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
        #: Memory its owner exported read-only (`np.frombuffer(bytes)`, a read-only interface): it may be a
        #: kernel input, never a copy destination, a mutable launch argument or a partition.
        self.read_only: bool = bool(getattr(allocation, "read_only", False))

    # -- geometry -------------------------------------------------------------------------------------------

    @property
    def shape(self) -> tuple[int]:
        self._check_alive("shape")
        return (self.length,)

    @property
    def element_type(self) -> type:
        """The dtype class (`f32`, ...), for code that wants the typing-level name."""
        return dtype_class(self.dtype.name)

    def __len__(self) -> int:
        self._check_alive("len")
        return self.length

    def overlaps(self, other: DeviceBuffer[Any]) -> bool:
        """True when the two byte ranges intersect (empty buffers overlap nothing)."""
        if self.nbytes == 0 or other.nbytes == 0:
            return False
        return self.ptr < other.ptr + other.nbytes and other.ptr < self.ptr + self.nbytes

    # -- ownership ------------------------------------------------------------------------------------------
    def _check_alive(self, operation: str) -> None:
        """Raise `UseAfterMoveError` if this handle was moved, or invalidated with the value it views."""
        site = self._moved
        if site is None:
            return
        what = f"`{site.name}`" if site.name else "this DeviceBuffer"
        if self._moved_via is not None:
            raise UseAfterMoveError(
                f"use of moved value: {what} ({operation} after {self._moved_via}, which it views, was moved "
                f"into `{site.operation}` at {site.describe()}); a view borrows its parent and ends when the "
                "parent moves"
            )
        advice = (
            "use the buffer `to` returned, on its new device"
            if site.operation == "to"
            else "use the partition, or the buffer the tile launch hands back at `sync_on`"
        )
        raise UseAfterMoveError(
            f"use of moved value: {what} ({operation} after it was moved into `{site.operation}` at "
            f"{site.describe()}); {advice}"
        )

    def _take(self, operation: str) -> DeviceBuffer[T]:
        """Move out of this handle: a fresh handle to the same memory; this one and its views are invalidated.

        Refused (nothing changes) for a moved handle, for a view (it only borrows its parent's memory), and
        for memory a pending `launch_async` still borrows (E0505).
        """
        self._check_movable(operation)
        successor: DeviceBuffer[T] = DeviceBuffer(self.device, self.allocation, self.dtype, self.offset, self.length)
        self._mark_moved(operation)
        site = self._moved
        assert site is not None
        self._invalidate_views(site, f"`{site.name}`" if site.name else "the buffer")
        return successor

    def _check_movable(self, operation: str) -> None:
        """Everything `_take` refuses, checked without moving (a launch checks all its arguments first)."""
        self._check_alive(operation)
        if self._parent is not None:
            name = _name_in_user_frame(self) or "the view"
            raise BorrowError(
                f"cannot move out of `{name}` because it is borrowed: it is a view of another value's memory "
                f"(`view`, a slice, `split_at` or `as_buffer(tensor)`), so `{operation}` cannot take ownership "
                "of it; move the owning buffer (or tensor) instead"
            )
        ensure_not_borrowed(self, operation)

    def _invalidate_views(self, site: MoveSite, owner: str) -> None:
        views, self._views = self._views, None
        if not views:
            return
        frame = _user_frame()
        for view in list(views):
            view._invalidate(site, owner, frame.f_locals if frame is not None else {})

    def _invalidate(self, site: MoveSite, owner: str, names: dict[str, Any]) -> None:
        """Mark this handle (a view or a lent handle) dead because `owner` moved at `site`."""
        if self._moved is None:
            name = next((k for k, v in names.items() if v is self), None)
            self._moved = MoveSite(name, site.filename, site.line, site.operation)
            self._moved_via = owner
        views, self._views = self._views, None
        for view in list(views or ()):
            view._invalidate(site, owner, names)

    def _borrowed_view(self, parent: object, offset: int, length: int) -> DeviceBuffer[T]:
        """A view of `[offset, offset + length)` (absolute elements) that borrows `parent`."""
        view: DeviceBuffer[T] = DeviceBuffer(self.device, self.allocation, self.dtype, offset, length)
        view._parent = parent
        return view

    def _register_view(self, view: DeviceBuffer[Any]) -> None:
        if self._views is None:
            self._views = weakref.WeakSet()
        self._views.add(view)

    def __copy__(self) -> DeviceBuffer[T]:
        """An untracked handle to the same window (the runtime's own recordings use it); a view stays a view."""
        clone: DeviceBuffer[T] = DeviceBuffer(self.device, self.allocation, self.dtype, self.offset, self.length)
        clone._moved, clone._moved_via, clone._parent = self._moved, self._moved_via, self._parent
        return clone

    def partition(self, tile_shape: Any) -> Partition[T]:
        """Move this buffer into a tile `Partition` of shape `(len,)` cut into `tile_shape` tiles (it moves the buffer).

        The partition owns the memory: this handle and its views are invalidated.  `partition.unpartition()`
        gives a 1-D `Tensor`; a tile launch hands the partition back at `sync_on`.  A shape error, a moved
        handle, a view, or a pending `launch_async` borrow raises before anything moves.
        """
        from safekernels.tile.tensor import Partition, check_partition_shape

        self._check_alive("partition")
        self.check_writable("partition")
        tiles = check_partition_shape((self.length,), tile_shape)
        owned = self._take("partition")
        return Partition(owned, (owned.length,), tiles)

    def to(
        self, device: Device, stream: Stream | None = None, *, source_stream: Stream | None = None
    ) -> DeviceBuffer[T]:
        """Move this buffer to `device`: the returned buffer holds the data there, and this handle (with its
        views) is invalidated, as any move does (`UseAfterMoveError` on later use).

        The copy is queued on `stream`, a stream of `device` (default: its default stream); on the same device
        nothing is copied.  Between GPUs it is ordered after `source_stream` (a stream of this buffer's device)
        when given, else after everything queued on this buffer's device so far (the host waits for it).
        Refused before anything is copied, like any move: a moved handle, a view (move its owner), memory a
        pending `launch_async` borrows (`BorrowError`, E0505), a stream of another device (`CrossDeviceError`).
        """
        from safekernels.runtime.placement import move_to

        moved: DeviceBuffer[T] = move_to(self, device, stream, source_stream)
        return moved

    def check_writable(self, operation: str) -> None:
        """Raise `ValueError` when this buffer's memory was exported read-only (see `read_only`)."""
        if self.read_only:
            raise ValueError(
                f"{operation}: the buffer wraps read-only memory (a read-only numpy array such as "
                "`np.frombuffer(bytes)`, or an interface that says `readonly`), which must not be written; "
                "wrap a writable copy instead (`sk.as_buffer(array.copy())`)"
            )

    # -- views ----------------------------------------------------------------------------------------------
    def view(self, start: int, stop: int) -> DeviceBuffer[T]:
        """Elements `[start, stop)` as a buffer sharing this one's memory (no copy); it borrows this buffer, so
        moving this buffer invalidates it."""
        self._check_alive("view")
        if not (isinstance(start, int) and isinstance(stop, int)):
            raise TypeError("DeviceBuffer.view(start, stop) takes ints")
        if not 0 <= start <= stop <= self.length:
            raise IndexError(f"view [{start}, {stop}) out of range for a buffer of length {self.length}")
        view = self._borrowed_view(self, self.offset + start, stop - start)
        self._register_view(view)
        return view

    def __getitem__(self, key: slice) -> DeviceBuffer[T]:
        self._check_alive("slicing")
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
        self._check_alive("split_at")
        if not 0 <= k <= self.length:
            raise IndexError(f"split_at({k}) out of range for a buffer of length {self.length}")
        return self.view(0, k), self.view(k, self.length)

    # -- host transfer --------------------------------------------------------------------------------------
    def to_numpy(self, stream: Stream | None = None) -> npt.NDArray[Any]:
        """Copy to a new host array (waits for the stream).  bf16 comes back as float32 holding bf16
        values."""
        self._check_alive("to_numpy")
        ensure_readable(self, "to_numpy")
        stream = stream if stream is not None else self.device.default_stream
        host = np.empty(self.length, dtype=self.dtype.storage)
        if self.nbytes:
            self.device.backend.copy_to_host(host, self.ptr, stream.handle)
        stream.synchronize()
        return to_f32(host, self.dtype) if is_encoded(self.dtype) else host

    def copy_from_numpy(self, array: npt.ArrayLike, stream: Stream | None = None) -> None:
        """Overwrite this buffer with `array` (same length; converted to this buffer's dtype)."""
        self._check_alive("copy_from_numpy")
        self.check_writable("copy_from_numpy")
        host = _host_storage(np.asarray(array), self.dtype)
        if host.size != self.length:
            raise ValueError(f"copy of {host.size} elements into a buffer of length {self.length}")
        stream = stream if stream is not None else self.device.default_stream
        if self.nbytes:
            self.device.backend.copy_from_host(self.ptr, host, stream.handle)
        stream.synchronize()

    def host_view(self) -> npt.NDArray[Any]:
        """CPU executor only: a typed numpy view onto this buffer's memory (writes go to the buffer)."""
        self._check_alive("host_view")
        alloc = self.allocation
        if not isinstance(alloc, HostAllocation):
            raise TypeError("host_view() exists only for buffers on Device.cpu()")
        start = self.offset * self.dtype.itemsize
        return alloc.array[start : start + self.nbytes].view(self.dtype.storage)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        self._check_alive("__cuda_array_interface__")
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
        self._check_alive("__dlpack__")
        from safekernels.runtime.interop import DLPackView  # host memory too, with bf16 / fp8 dtype codes

        return DLPackView(self).__dlpack__(
            stream=stream, max_version=max_version, dl_device=dl_device, copy=copy
        )

    def __dlpack_device__(self) -> tuple[int, int]:
        from safekernels.runtime.interop import DLPackView

        return DLPackView(self).__dlpack_device__()

    def __repr__(self) -> str:
        if self._moved is not None:
            return f"<DeviceBuffer[{self.dtype}] (moved)>"
        return f"DeviceBuffer[{self.dtype}](len={self.length}, device={self.device!r})"


def _name_in_user_frame(value: object) -> str | None:
    """The caller's local name for `value` (the first frame outside safekernels), for messages."""
    frame = _user_frame()
    if frame is None:
        return None
    return next((k for k, v in frame.f_locals.items() if v is value), None)


def ensure_not_borrowed(buffer: DeviceBuffer[Any], operation: str, owner: object = None) -> None:
    """Raise the runtime E0505 when a pending `launch_async` still borrows any of `buffer`'s memory.

    `owner` is the value being moved when that is not `buffer` itself (a tile tensor), for the message.  Moving
    is exclusive, so a shared borrow blocks it as much as a mutable one.  The records live in
    `simt.borrows`; when that module was never imported no SIMT op can be pending, so nothing is imported here.
    """
    h = _pending_borrow(buffer, writes_only=False)
    if h is not None:
        shown = _name_in_user_frame(owner if owner is not None else buffer) or "the value"
        kind = "mutably" if h.mutable else "shared"
        raise BorrowError(
            f"cannot move out of `{shown}` because it is borrowed (E0505): the pending "
            f"`{h.kernel}.launch_async` borrows it ({kind}) as argument `{h.param}`; consume that DeviceOp "
            f"with `sync_on`/`sync` before moving `{shown}` into `{operation}`"
        )


def ensure_readable(buffer: DeviceBuffer[Any], operation: str, owner: object = None) -> None:
    """Raise the runtime E0502 when a pending `launch_async` writes any of `buffer`'s memory: reading it on the
    host (`to_numpy`) would copy what the kernel has not written yet, a read racing the pending write (the
    checker's shared borrow of `to_numpy` against the op's mutable loan).  A pending op that only reads it is
    no conflict.  `owner`: the value read when that is not `buffer` itself (a tile tensor), for the message."""
    h = _pending_borrow(buffer, writes_only=True)
    if h is not None:
        shown = _name_in_user_frame(owner if owner is not None else buffer) or "the value"
        raise BorrowError(
            f"cannot borrow `{shown}` as immutable because it is also borrowed as mutable (E0502): the pending "
            f"`{h.kernel}.launch_async` writes it as argument `{h.param}`; consume that DeviceOp with "
            f"`sync_on`/`sync` before reading `{shown}` with `{operation}`"
        )


def _pending_borrow(buffer: DeviceBuffer[Any], writes_only: bool) -> Any:
    """The first pending `launch_async` record (`simt.borrows.HeldBorrow`) over any of `buffer`'s memory (only
    the mutable ones with `writes_only`), or None.  When `simt.borrows` was never imported no SIMT op can be
    pending, so nothing is imported here."""
    borrows = sys.modules.get("safekernels.simt.borrows")
    if borrows is None or buffer.nbytes == 0:
        return None
    held = borrows.pending_records()
    if not held:
        return None
    start, end = buffer.ptr, buffer.ptr + buffer.nbytes
    for h in list(held):
        if h.device is buffer.device and start < h.end and h.start < end and (h.mutable or not writes_only):
            return h
    return None


def _host_storage(array: npt.NDArray[Any], dtype: DType) -> npt.NDArray[Any]:
    """`array` flattened and converted to how `dtype` is stored (bf16 rounds to bit patterns)."""
    flat = np.ascontiguousarray(array).reshape(-1)
    if is_encoded(dtype):
        return flat if flat.dtype == dtype.storage else from_f32(flat.astype(np.float32), dtype)
    return flat.astype(dtype.storage, copy=False)


def _resolve_device(stream: Stream | None, device: Device | None) -> Device:
    if stream is not None:
        if device is not None and device is not stream.device:
            raise ValueError(f"stream belongs to {stream.device!r}, not {device!r}")
        return stream.device
    return device if device is not None else Device.default()


@overload
def empty(
    length: int, dtype: type[S], stream: Stream | None = None, *, device: Device | None = None
) -> DeviceBuffer[S]: ...
@overload
def empty(
    length: int, dtype: DTypeName, stream: Stream | None = None, *, device: Device | None = None
) -> DeviceBuffer[Any]: ...
def empty(
    length: int, dtype: Any, stream: Stream | None = None, *, device: Device | None = None
) -> DeviceBuffer[Any]:
    """An uninitialized buffer of `length` elements (zero-filled on the CPU executor).

    Typed for mypy from `dtype` when it is a dtype class: `empty(n, f32, s)` is a `DeviceBuffer[f32]`.
    """
    if not isinstance(length, int) or isinstance(length, bool) or length < 0:
        raise ValueError(f"length must be a non-negative int, got {length!r}")
    dt = dtype_of(dtype)
    dev = _resolve_device(stream, device)
    nbytes = length * dt.itemsize
    capacity = device_memory_bytes(dev)
    if nbytes > capacity:
        raise MemoryError(
            f"cannot allocate {length} elements of {dt.name} ({nbytes} bytes) on {dev!r}: more than its "
            f"{capacity} bytes of memory"
        )
    allocation = dev.backend.allocate(nbytes)
    return DeviceBuffer(dev, allocation, dt, 0, length)


def device_memory_bytes(device: Device) -> int:
    """The most one allocation on `device` could ever get: the GPU's total memory, or the host's RAM."""
    total = device.limits.total_memory
    if total > 0:
        return total
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # no sysconf: numpy's own MemoryError still applies
        return 1 << 62


@overload
def zeros(
    length: int, dtype: type[S], stream: Stream | None = None, *, device: Device | None = None
) -> DeviceBuffer[S]: ...
@overload
def zeros(
    length: int, dtype: DTypeName, stream: Stream | None = None, *, device: Device | None = None
) -> DeviceBuffer[Any]: ...
def zeros(
    length: int, dtype: Any, stream: Stream | None = None, *, device: Device | None = None
) -> DeviceBuffer[Any]:
    """A buffer of `length` zeros (`zeros(n, f32, s)` is a `DeviceBuffer[f32]` for mypy)."""
    buffer = empty(length, dtype, stream, device=device)
    if buffer.nbytes:
        handle = stream.handle if stream is not None else None
        buffer.device.backend.memset_zero(buffer.ptr, buffer.nbytes, handle)
    return buffer


@overload
def to_device(
    array: npt.ArrayLike, stream: Stream | None = None, *, dtype: type[S], device: Device | None = None
) -> DeviceBuffer[S]: ...
@overload
def to_device(
    array: _Host[_F16], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[f16]: ...
@overload
def to_device(
    array: _Host[_F32], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[f32]: ...
@overload
def to_device(
    array: _Host[_F64], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[f64]: ...
@overload
def to_device(
    array: _Host[_I8], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[i8]: ...
@overload
def to_device(
    array: _Host[_I16], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[i16]: ...
@overload
def to_device(
    array: _Host[_I32], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[i32]: ...
@overload
def to_device(
    array: _Host[_I64], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[i64]: ...
@overload
def to_device(
    array: _Host[_U8], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[u8]: ...
@overload
def to_device(
    array: _Host[_U16], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[u16]: ...
@overload
def to_device(
    array: _Host[_U32], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[u32]: ...
@overload
def to_device(
    array: _Host[_U64], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[u64]: ...
@overload
def to_device(
    array: _Host[_BOOL], stream: Stream | None = None, *, dtype: None = None, device: Device | None = None
) -> DeviceBuffer[bool_]: ...
@overload
def to_device(
    array: npt.ArrayLike, stream: Stream | None = None, *, dtype: DTypeName | None = None, device: Device | None = None
) -> DeviceBuffer[Any]: ...
def to_device(
    array: npt.ArrayLike, stream: Stream | None = None, *, dtype: Any = None, device: Device | None = None
) -> DeviceBuffer[Any]:
    """Copy a host array (flattened) to a new buffer; the dtype comes from the array unless `dtype` is
    given.  Typed for mypy from `dtype=` (a dtype class) or from the numpy array's element type where mypy knows
    it (`np.ones(n, np.float32)` gives a `DeviceBuffer[f32]`; a `list` or an untyped array gives `DeviceBuffer[Any]`).
    """
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

    A 1-D tile `Tensor` gives a handle that borrows it without moving it (`Tensor.as_buffer`): a SIMT kernel can
    read or write the tile result in place, and the handle is invalidated when the tensor moves.  A moved
    `DeviceBuffer` raises `UseAfterMoveError`.
    """
    if isinstance(obj, DeviceBuffer):
        obj._check_alive("as_buffer")
        return obj
    tensor_module = sys.modules.get("safekernels.tile.tensor")
    if tensor_module is not None and isinstance(obj, tensor_module.Tensor | tensor_module.Partition):
        if isinstance(obj, tensor_module.Partition):
            raise TypeError("as_buffer takes a 1-D tile Tensor, not a Partition (unpartition it first)")
        lent: DeviceBuffer[Any] = obj.as_buffer()
        if device is not None and lent.device is not device:
            raise ValueError(f"the tensor lives on {lent.device!r}, not {device!r}")
        return lent
    try:
        interface = getattr(obj, "__cuda_array_interface__", None)
    except Exception:  # an exporter that cannot describe this dtype (torch's fp8: KeyError) or this tensor
        interface = _NO_TYPESTR
    if interface is None or interface is _NO_TYPESTR or _void_typestr(interface):
        # no typestr for the element type (bf16, the 8-bit floats) or no interface (a CPU tensor): a torch
        # tensor describes itself fully, anything else names its dtype through DLPack
        if "torch" in sys.modules:
            from safekernels.runtime.interop import buffer_from_torch, is_torch_tensor

            if is_torch_tensor(obj):
                return buffer_from_torch(obj, device)
        if interface is not None and hasattr(obj, "__dlpack__"):
            interface = None
        elif interface is _NO_TYPESTR:
            interface = obj.__cuda_array_interface__  # raises the exporter's own error
    if interface is not None:
        from safekernels.runtime.interop import buffer_from_cuda_array_interface

        wrapped: DeviceBuffer[Any] = buffer_from_cuda_array_interface(obj, interface, device)
        return wrapped
    if isinstance(obj, np.ndarray):
        return _wrap_host_array(obj, device)
    if hasattr(obj, "__dlpack__"):
        from safekernels.runtime.interop import buffer_from_dlpack

        imported: DeviceBuffer[Any] = buffer_from_dlpack(obj, device)
        return imported
    raise TypeError(
        f"cannot use {type(obj).__name__} as a buffer: expected safekernels.DeviceBuffer, a numpy array, "
        "or an object with __cuda_array_interface__ or __dlpack__"
    )


#: `__cuda_array_interface__` raised: the exporter cannot describe this array (a dtype it has no typestr for)
_NO_TYPESTR: Any = object()


def _void_typestr(interface: Any) -> bool:
    """`__cuda_array_interface__` says "raw bytes" (`|V2`): the exporter has no typestr for its element type."""
    typestr = interface.get("typestr") if isinstance(interface, dict) else None
    return isinstance(typestr, str) and typestr[1:2] == "V"


def _wrap_host_array(array: npt.NDArray[Any], device: Device | None = None) -> DeviceBuffer[Any]:
    """A numpy array as a buffer of the CPU executor `device` asks for (a launch on `Device.cpu(1)` wraps its
    numpy arguments there), else of `Device.cpu()`."""
    if not array.flags.c_contiguous:
        raise ValueError("as_buffer needs a C-contiguous array (use numpy.ascontiguousarray first)")
    dt = dtype_of(array.dtype)
    home = device if device is not None and device.is_cpu else Device.cpu()
    return DeviceBuffer(home, HostAllocation(array.nbytes, wrap=array), dt, 0, array.size)
