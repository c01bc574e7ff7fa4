"""Host-side `Tensor[T]` and `Partition[T]`: owned, shaped device memory for tile kernels.

A `Tensor` is a row-major n-d shape over a `DeviceBuffer` (the same buffer type the SIMT track and codegen
use), so nothing here depends on which executor runs the kernel.  Ownership follows docs/reference.md ("What
moves") and cutile-rs:

    Tensor ─partition(tile)─▶ Partition ─launch─▶ DeviceOp ─sync_on─▶ (Partition, ...) ─unpartition─▶ Tensor

Every arrow moves: the object on its left is invalidated (`Movable`) and any later use raises
`UseAfterMoveError` naming the variable and the line of the move.  `to_numpy` only borrows.  A SIMT
`DeviceBuffer` enters this world by moving (`buf.partition(tile)`, or as a launch's `Tensor` argument); a 1-D
tensor lends its memory back to SIMT kernels with `as_buffer()` (a borrowed handle, invalidated when the tensor
moves; docs/interop.md).  Moving memory that a pending SIMT `launch_async` borrows raises `BorrowError` (E0505).
A tensor that came out of `.shared()` is shared storage: it may be read by any number of launches (using it does not
invalidate it, like cloning an `Arc`) but it can never be partitioned into an exclusive output.

Inside a kernel body the parameters are views (`tile.views`), not these objects; the kernel-only methods here
(`Tensor.load`, `Partition.store`, ...) exist so that kernel code type-checks, and raise if called on the
host.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

import numpy.typing as npt

from safekernels.dtypes import DType, dtype_class
from safekernels.errors import BorrowError, ShapeError
from safekernels.runtime.buffer import DeviceBuffer, ensure_not_borrowed, ensure_readable
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.device_op import SHARED_PARTITION_MESSAGE
from safekernels.runtime.ownership import Movable, frame_locals
from safekernels.tile.ops import Shape
from safekernels.tile.tile_value import Tile
from safekernels.tile.views import as_shape, tile_grid

T = TypeVar("T")

#: cutile-rs: a mutable partition fixes the launch grid, and grids have at most three axes.
MAX_PARTITION_RANK = 3


def _kernel_only(what: str) -> TypeError:
    return TypeError(
        f"{what} is only valid inside a @tile.kernel body (on the host, read data with to_numpy)"
    )


def check_partition_shape(shape: Shape, tile_shape: Any) -> Shape:
    """Validate a tile shape for `partition` on a tensor of `shape`; returns it as a tuple."""
    tiles = as_shape(tile_shape, "partition")
    if len(tiles) != len(shape):
        raise ShapeError(
            f"partition: tile shape {tiles} has rank {len(tiles)}, "
            f"the tensor shape {shape} has rank {len(shape)}"
        )
    if len(tiles) > MAX_PARTITION_RANK:
        raise ShapeError(
            f"partition: a partition fixes the launch grid, which has at most 3 axes; got {tiles}"
        )
    return tiles


@dataclass(frozen=True)
class TensorSpec:
    """What is known about a tensor or partition before it exists (the static `meta` of a `DeviceOp`)."""

    shape: Shape
    dtype: DType
    tile_shape: Shape | None = None  # set for a Partition
    shared: bool = False

    def partition(self, tile_shape: Any) -> TensorSpec:
        if self.tile_shape is not None:
            raise TypeError("partition: the value is already a Partition (unpartition it first)")
        if self.shared:
            raise BorrowError(SHARED_PARTITION_MESSAGE)
        return TensorSpec(self.shape, self.dtype, check_partition_shape(self.shape, tile_shape))

    def unpartition(self) -> TensorSpec:
        if self.tile_shape is None:
            raise TypeError("unpartition: the value is a Tensor, not a Partition")
        return TensorSpec(self.shape, self.dtype)

    def as_shared(self) -> TensorSpec:
        return TensorSpec(self.shape, self.dtype, self.tile_shape, True)


class _Owned(Movable):
    """Shared parts of Tensor and Partition: the buffer, the shape, and shared-storage aware moves."""

    _shared = False
    _lent: weakref.WeakSet[DeviceBuffer[Any]] | None = None  # live `as_buffer()` handles borrowing this value

    _tile_shape: Shape | None = None

    def __init__(self, buffer: DeviceBuffer[Any], shape: Shape) -> None:
        if math.prod(shape) != buffer.length:
            raise ShapeError(f"shape {shape} has {math.prod(shape)} elements, the buffer {buffer.length}")
        self._buffer = buffer
        self._shape = shape
        self._refresh_key()

    def _refresh_key(self) -> None:
        """`_key`: the one `SpecKey` naming everything a launch checks about this value (kind, shape, dtype,
        tile shape, shared, device); equal keys pass the same checks, so a tile launch's plan cache is keyed
        by it (`tile.launch_plan`).  Handles made by a move share the key of the handle they came from."""
        buf = self._buffer
        spec = (type(self), self._shape, buf.dtype.name, self._tile_shape, self._shared, buf.device)
        key = _SPEC_KEYS.get(spec)
        if key is None:
            key = _SPEC_KEYS[spec] = SpecKey(spec)
        self._key: SpecKey = key

    def _mark_moved(self, operation: str) -> None:
        if self._shared:  # a shared value is never consumed by one of its users
            self._check_alive(operation)
            return
        super()._mark_moved(operation)
        self._end_loans()

    def _end_loans(self) -> None:
        """After a move: the `as_buffer()` handles lent from this value end with it (runtime twin of "borrow
        later used")."""
        lent, self._lent = self._lent, None
        site = self._moved
        if lent and site is not None:
            names = frame_locals()
            name = site.name_for(self)
            owner = f"`{name}`" if name else "the tensor"
            for handle in list(lent):
                handle._invalidate(site, owner, names)

    def _ensure_unborrowed(self, operation: str) -> None:
        """E0505 at runtime: a pending SIMT `launch_async` still borrows this value's memory."""
        if not self._shared:
            ensure_not_borrowed(self._buffer, operation, self)

    def _take(self, operation: str) -> Self:
        """Move out of this handle: a fresh handle to the same storage; this one is invalidated.

        A launch takes its arguments this way, so the values it hands back are usable and the caller's old
        names are not.  Shared storage is not consumed: the same handle is returned.
        """
        if self._shared:
            self._check_alive(operation)
            return self
        self._check_alive(operation)
        self._ensure_unborrowed(operation)
        successor = self._successor()
        self._mark_moved(operation)
        return successor

    def _successor(self) -> Self:
        """A fresh, alive handle to the same storage (no lent handles, same key); nothing else changes."""
        successor = object.__new__(type(self))
        state = self.__dict__.copy()
        state.pop("_lent", None)
        state.pop("_moved", None)
        successor.__dict__ = state
        return successor

    def _mark_shared(self) -> None:
        self._shared = True
        self._refresh_key()

    @property
    def is_shared(self) -> bool:
        return self._shared

    @property
    def shape(self) -> Shape:
        """The whole tensor's shape."""
        self._check_alive("shape")
        return self._shape

    @property
    def dtype(self) -> DType:
        self._check_alive("dtype")
        return self._buffer.dtype

    @property
    def element_type(self) -> type:
        """The dtype class (`f32`, ...)."""
        return dtype_class(self.dtype.name)

    @property
    def device(self) -> Device:
        self._check_alive("device")
        return self._buffer.device

    @property
    def buffer(self) -> DeviceBuffer[Any]:
        """The executors' raw handle to the flat, row-major storage: untracked, so do not keep it past a move.

        User code that hands a tensor to a SIMT kernel uses `as_buffer()` / `sk.as_buffer(tensor)` instead,
        whose handle is invalidated when the tensor moves."""
        self._check_alive("buffer")
        return self._buffer

    def to_numpy(self, stream: Stream | None = None) -> npt.NDArray[Any]:
        """Wait for `stream` and copy the whole tensor to a new host array (borrows; does not move)."""
        self._check_alive("to_numpy")
        ensure_readable(self._buffer, "to_numpy", self)
        return self._buffer.to_numpy(stream).reshape(self._shape)


class SpecKey:
    """The interned spec of a tile tensor or partition (`_Owned._key`): one object per spec, hashed and
    compared by identity, so a launch's key is a tuple of these and nothing but a tile handle can forge one
    (the launch reads `_key` off its arguments without looking at their types)."""

    __slots__ = ("spec",)

    def __init__(self, spec: tuple[Any, ...]) -> None:
        self.spec = spec

    def __repr__(self) -> str:
        return f"SpecKey{self.spec[1:]}"


#: (kind, shape, dtype name, tile shape, shared, device) -> its `SpecKey`; a handful per program.
_SPEC_KEYS: dict[tuple[Any, ...], SpecKey] = {}


class Tensor(_Owned, Generic[T]):
    """A shaped, owned tensor on a device (host side); as a kernel parameter, a shared read-only input."""

    def partition(self, shape: Any) -> Partition[T]:
        """Cut into tiles of `shape` for exclusive per-block output (moves this tensor; grid = ceil-div)."""
        self._check_alive("partition")
        if self._shared:
            raise BorrowError(SHARED_PARTITION_MESSAGE)
        tiles = check_partition_shape(self._shape, shape)
        self._ensure_unborrowed("partition")
        self._mark_moved("partition")
        return Partition(self._buffer, self._shape, tiles)

    def as_buffer(self) -> DeviceBuffer[T]:
        """This 1-D tensor's memory as a `DeviceBuffer` for SIMT kernels, without moving the tensor.

        The handle borrows the tensor: SIMT launches may read or write it in place (the tensor sees the
        writes), and it is invalidated when the tensor moves (a later use raises `UseAfterMoveError`); the
        handle itself cannot be moved.  Shared tensors (from `.shared()`) are read-only storage and refuse.
        Same as `safekernels.as_buffer(tensor)`.
        """
        self._check_alive("as_buffer")
        if self._shared:
            raise BorrowError(
                "as_buffer: cannot lend shared tensor storage as a DeviceBuffer (a SIMT kernel could write "
                "memory other launches read); sync the op without `.shared()` to own the tensor"
            )
        if len(self._shape) != 1:
            raise ShapeError(
                f"as_buffer: a DeviceBuffer is 1-D, the tensor has shape {self._shape}; only 1-D tensors lend "
                "their memory to SIMT kernels"
            )
        raw = self._buffer
        handle: DeviceBuffer[T] = raw._borrowed_view(self, raw.offset, raw.length)
        if self._lent is None:
            self._lent = weakref.WeakSet()
        self._lent.add(handle)
        return handle

    def load(self, index: Any, shape: Any) -> Tile[T]:
        """Kernel only: the tile of `shape` at tile index `index` (padded with zeros past the edge)."""
        raise _kernel_only("Tensor.load")

    def spec(self) -> TensorSpec:
        self._check_alive("spec")
        return TensorSpec(self._shape, self._buffer.dtype, None, self._shared)

    def __repr__(self) -> str:
        if self.is_moved:
            return "<Tensor (moved)>"
        return f"Tensor[{self._buffer.dtype}](shape={self._shape}, device={self._buffer.device!r})"


class Partition(_Owned, Generic[T]):
    """A tensor cut into tiles; as a kernel parameter, each tile block's exclusive output tile."""

    _tile_shape: Shape

    def __init__(self, buffer: DeviceBuffer[Any], shape: Shape, tile_shape: Shape) -> None:
        self._tile_shape = tile_shape
        super().__init__(buffer, shape)

    @property
    def tile_shape(self) -> Shape:
        self._check_alive("tile_shape")
        return self._tile_shape

    @property
    def grid(self) -> Shape:
        """Tile blocks per axis (the launch grid when this partition is a kernel's output)."""
        self._check_alive("grid")
        return tile_grid(self._shape, self._tile_shape)

    def unpartition(self) -> Tensor[T]:
        """The whole tensor again (moves this partition)."""
        self._mark_moved("unpartition")
        tensor: Tensor[T] = Tensor(self._buffer, self._shape)
        return tensor

    def load(self, index: Any = None) -> Tile[T]:
        """Kernel only: the block's own tile (no index), or the tile at `index` of an input's partition."""
        raise _kernel_only("Partition.load")

    def store(self, value: Tile[T]) -> None:
        """Kernel only: write the block's own tile (masked past the tensor's edge)."""
        raise _kernel_only("Partition.store")

    def num_tiles(self, axis: int) -> int:
        """Tiles along `axis` (works on the host and in kernels)."""
        return self.grid[axis]

    def spec(self) -> TensorSpec:
        self._check_alive("spec")
        return TensorSpec(self._shape, self._buffer.dtype, self._tile_shape, self._shared)

    def __repr__(self) -> str:
        if self.is_moved:
            return "<Partition (moved)>"
        return (
            f"Partition[{self._buffer.dtype}](shape={self._shape}, tile={self._tile_shape}, grid={self.grid})"
        )
