"""What `Tensor[T]` and `Partition[T]` parameters are *inside* a kernel body.

On the host a `Tensor` owns a buffer and a `Partition` owns a tensor cut into tiles; inside the body each tile
block sees views of the same memory:

- `TensorView` (a `Tensor[T]` parameter): the whole tensor, read-only.  `x.load(index, shape)` and
  `x.partition(shape).load(index)` read one tile, indices in tile units.
- `PartitionView` (a `Partition[T]` parameter): the block's own tile of an output, `z.load()` / `z.store(t)`,
  `tile.scatter(z, index, values)` (element indices; only those inside the block's own tile are written).
  The same class, read-only and without an own tile, is what `x.partition(shape)` gives inside a kernel.
- `AtomicView` (an `AtomicTensor[T]` parameter): a whole tensor every tile block may update, but only through
  `tile.atomic_add/max/min` (commutative read-modify-writes), never read or stored: blocks run concurrently on
  the GPU, so a plain read or store would race.  `tile.gather(x, index)` reads a `Tensor` at element indices.

Bounds (cutile-rs's semantics): a tile index must lie in `[0, num_tiles)` on every axis, otherwise the kernel
traps (`KernelTrapError` naming kernel, parameter, index and tile count).  The last tile on an axis may stick
out past the tensor's edge when the shape does not divide: its load is padded with zeros and its store is
masked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import numpy as np

from safekernels.dtypes import DType
from safekernels.errors import KernelTrapError, ShapeError
from safekernels.tile.context import require_block
from safekernels.tile.ops import (
    ATOMIC_OPS,
    Array,
    Shape,
    atomic_values,
    check_atomic_dtype,
    gather_values,
    infer_indexed,
    infer_stored_values,
    load_padded,
    scatter_values,
    store_masked,
)
from safekernels.tile.tile_value import Tile

T = TypeVar("T")


class AtomicTensor(Generic[T]):
    """Kernel parameter annotation: a whole output tensor that all tile blocks update with atomics.

    The host passes a `Tensor[T]` (or a DeviceOp of one, or a DeviceBuffer); the launch moves it like any tile
    argument and hands it back at `sync_on`.  Inside the body only `tile.atomic_add/max/min` may touch it.
    """


def indexed_operands(what: str, index: Any, rank: int) -> list[Tile[Any]]:
    """Index argument of gather/scatter/atomics: a tile (rank-1 tensors) or a tuple with one tile or int per
    axis; ints become rank-0 i64 tiles."""
    from safekernels.dtypes import dtype_of

    items: Sequence[Any] = index if isinstance(index, tuple | list) else (index,)
    out: list[Tile[Any]] = []
    for item in items:
        if isinstance(item, Tile):
            out.append(item)
        elif isinstance(item, int | np.integer) and not isinstance(item, bool):
            out.append(Tile(np.asarray(int(item), dtype=np.int64), dtype_of("i64")))
        else:
            raise TypeError(f"{what}: index entries are integer tiles or ints, got {type(item).__name__}")
    if not any(isinstance(i, Tile) and i.shape for i in out) and len(out) != rank:
        raise ShapeError(f"{what}: the tensor has rank {rank}, got {len(out)} index entries")
    return out


def _indexed_shape(what: str, name: str, rank: int, dtype: DType, index: list[Tile[Any]], mask: Any) -> Shape:
    if mask is not None and not isinstance(mask, Tile):
        raise TypeError(f"{what}: the mask must be a bool tile, got {type(mask).__name__}")
    try:
        return infer_indexed(
            what.removeprefix("tile."), rank, dtype, [t.type for t in index], mask.type if mask is not None else None
        )
    except (TypeError, ShapeError) as exc:
        raise type(exc)(f"{exc} (tensor `{name}`)") from None


def _value_array(what: str, value: Any, dtype: DType, shape: Shape) -> tuple[Array, Shape]:
    """The values to store and the shape of the lanes (index, mask and values broadcast together)."""
    from safekernels.tile.tile_value import _scalar_tile

    tile_value = value if isinstance(value, Tile) else _scalar_tile(value, dtype)
    return tile_value.numpy(), infer_stored_values(what.removeprefix("tile."), shape, dtype, tile_value.type)


def tile_grid(shape: Shape, tile_shape: Shape) -> Shape:
    """Tiles per axis: the ceil-division of the tensor shape by the tile shape."""
    return tuple(-(-n // t) for n, t in zip(shape, tile_shape, strict=True))


def as_index(index: Any, rank: int, what: str) -> tuple[int, ...]:
    """An int or a tuple of ints of length `rank`."""
    items: Sequence[Any] = index if isinstance(index, tuple | list) else (index,)
    if len(items) != rank or not all(isinstance(i, int | np.integer) for i in items):
        raise TypeError(f"{what}: expected {rank} integer tile index(es), got {index!r}")
    return tuple(int(i) for i in items)


def as_shape(shape: Any, what: str) -> Shape:
    """An int or a tuple of positive ints."""
    items: Sequence[Any] = shape if isinstance(shape, tuple | list) else (shape,)
    if not items or not all(
        isinstance(s, int | np.integer) and not isinstance(s, bool) and s > 0 for s in items
    ):
        raise ShapeError(f"{what}: a tile shape is a tuple of positive ints, got {shape!r}")
    return tuple(int(s) for s in items)


class TensorView:
    """A `Tensor[T]` parameter inside a kernel: the whole tensor, read-only."""

    def __init__(self, name: str, storage: Array, dtype: DType) -> None:
        self.name = name
        self._storage = storage  # shaped, in storage representation (bf16: uint16)
        self.dtype = dtype

    @property
    def shape(self) -> Shape:
        return tuple(self._storage.shape)

    def load(self, index: Any, shape: Any) -> Tile[Any]:
        """The tile of `shape` at tile index `index` (origin `index * shape`), zero-padded at the edge."""
        return self.partition(shape).load(index)

    def partition(self, shape: Any) -> PartitionView:
        """A read-only tiled view (no move inside a kernel: the host still owns the tensor)."""
        tile_shape = as_shape(shape, f"{self.name}.partition")
        if len(tile_shape) != len(self.shape):
            raise ShapeError(
                f"{self.name}.partition: tile shape {tile_shape} has rank {len(tile_shape)}, the tensor "
                f"{self.shape} has rank {len(self.shape)}"
            )
        return PartitionView(self.name, self._storage, self.dtype, tile_shape, own_index=None, writable=False)

    def gather(self, index: Any, mask: Any = None, other: Any = 0) -> Tile[Any]:
        """Elements at per-axis index tiles (broadcast together); out-of-range or masked-off lanes read `other`."""
        require_block("tile.gather")
        idx = indexed_operands("tile.gather", index, len(self.shape))
        shape = _indexed_shape("tile.gather", self.name, len(self.shape), self.dtype, idx, mask)
        if not isinstance(other, int | float | np.number) or isinstance(other, bool):
            raise TypeError(f"tile.gather: `other` must be a number, got {type(other).__name__}")
        if isinstance(other, float) and not self.dtype.is_float:
            raise TypeError(f"tile.gather: a float `other` for the {self.dtype} tensor `{self.name}`")
        mask_array = mask.numpy() if mask is not None else None
        values = gather_values(self._storage, [t.numpy() for t in idx], mask_array, other, shape, self.dtype)
        return Tile(values, self.dtype)

    def __repr__(self) -> str:
        return f"TensorView[{self.dtype}]({self.name}, shape={self.shape})"


class AtomicView:
    """An `AtomicTensor[T]` parameter inside a kernel: updated only by `tile.atomic_add/max/min`."""

    def __init__(self, name: str, storage: Array, dtype: DType) -> None:
        self.name = name
        self._storage = storage
        self.dtype = dtype

    @property
    def shape(self) -> Shape:
        return tuple(self._storage.shape)

    def atomic(self, op: str, index: Any, values: Any, mask: Any = None) -> None:
        what = f"tile.{op}"
        require_block(what)
        check_atomic_dtype(op, self.dtype)
        idx = indexed_operands(what, index, len(self.shape))
        shape = _indexed_shape(what, self.name, len(self.shape), self.dtype, idx, mask)
        vals, shape = _value_array(what, values, self.dtype, shape)
        atomic_values(
            self._storage,
            ATOMIC_OPS[op],
            [t.numpy() for t in idx],
            vals,
            mask.numpy() if mask is not None else None,
            shape,
            self.dtype,
        )

    def __repr__(self) -> str:
        return f"AtomicView[{self.dtype}]({self.name}, shape={self.shape})"


class PartitionView:
    """A tiled view: a `Partition[T]` parameter (own tile, writable) or an input's `x.partition(shape)`."""

    def __init__(
        self,
        name: str,
        storage: Array,
        dtype: DType,
        tile_shape: Shape,
        *,
        own_index: tuple[int, ...] | None,
        writable: bool,
    ) -> None:
        self.name = name
        self._storage = storage
        self.dtype = dtype
        self.tile_shape = tile_shape
        self._own = own_index
        self._writable = writable

    @property
    def shape(self) -> Shape:
        """The whole tensor's shape."""
        return tuple(self._storage.shape)

    @property
    def grid(self) -> Shape:
        return tile_grid(self.shape, self.tile_shape)

    def num_tiles(self, axis: int) -> int:
        """How many tiles this partition has along `axis`."""
        return self.grid[axis]

    def own_index(self, what: str) -> tuple[int, ...]:
        if self._own is None:
            raise TypeError(
                f"{what}: `{self.name}` is a read-only partition of an input; "
                "pass a tile index, e.g. .load((i, j))"
            )
        return self._own

    def _origin(self, index: tuple[int, ...]) -> tuple[int, ...]:
        grid = self.grid
        if any(not 0 <= i < n for i, n in zip(index, grid, strict=True)):
            ctx = require_block("a tile load")
            raise KernelTrapError(
                f"kernel `{ctx.kernel}`: tile index {index} out of bounds for `{self.name}` (tensor shape "
                f"{self.shape}, tile shape {self.tile_shape}: {grid} tiles; tile block {ctx.block})"
            )
        return tuple(i * t for i, t in zip(index, self.tile_shape, strict=True))

    def load(self, index: Any = None) -> Tile[Any]:
        """The tile at `index` (tile units); without an index, the block's own tile of an output partition."""
        require_block(f"{self.name}.load")
        idx = (
            self.own_index(f"{self.name}.load()")
            if index is None
            else as_index(index, len(self.tile_shape), f"{self.name}.load")
        )
        return Tile(load_padded(self._storage, self._origin(idx), self.tile_shape, self.dtype), self.dtype)

    def store(self, value: Tile[Any]) -> None:
        """Write the block's own tile; elements past the tensor's edge are dropped."""
        require_block(f"{self.name}.store")
        if not self._writable:
            raise TypeError(
                f"`{self.name}` is a read-only Tensor parameter; only Partition parameters can store"
            )
        if not isinstance(value, Tile):
            raise TypeError(f"{self.name}.store takes a tile, got {type(value).__name__}")
        if value.shape != self.tile_shape:
            raise ShapeError(
                f"{self.name}.store: tile shape {value.shape} does not match the partition's tile shape "
                f"{self.tile_shape}"
            )
        if value.dtype != self.dtype:
            raise TypeError(
                f"{self.name}.store: tile dtype {value.dtype} does not match "
                f"the partition's dtype {self.dtype}; "
                f"convert with .astype({self.dtype})"
            )
        origin = self._origin(self.own_index(f"{self.name}.store"))
        store_masked(self._storage, origin, value.numpy(), self.dtype)

    def scatter(self, index: Any, values: Any, mask: Any = None) -> None:
        """Write `values` at per-axis element indices; lanes outside the block's own tile (or the tensor, or
        the mask) are dropped, so a block still writes only what it owns."""
        require_block("tile.scatter")
        if not self._writable:
            raise TypeError(f"tile.scatter: `{self.name}` is read-only; only Partition parameters can store")
        own = self.own_index("tile.scatter")
        idx = indexed_operands("tile.scatter", index, len(self.shape))
        shape = _indexed_shape("tile.scatter", self.name, len(self.shape), self.dtype, idx, mask)
        vals, shape = _value_array("tile.scatter", values, self.dtype, shape)
        lo = [i * t for i, t in zip(own, self.tile_shape, strict=True)]
        hi = [a + t for a, t in zip(lo, self.tile_shape, strict=True)]
        scatter_values(
            self._storage,
            [t.numpy() for t in idx],
            vals,
            mask.numpy() if mask is not None else None,
            shape,
            self.dtype,
            (lo, hi),
        )

    def __repr__(self) -> str:
        return f"PartitionView[{self.dtype}]({self.name}, tile={self.tile_shape}, grid={self.grid})"


def load_like(x: TensorView, z: PartitionView) -> Tile[Any]:
    """`x`'s tile at `z`'s tile-block position, shaped like `z`'s tile."""
    if not isinstance(x, TensorView) or not isinstance(z, PartitionView):
        raise TypeError(
            "tile.load_like(x, z) takes a Tensor parameter and a Partition parameter, got "
            f"{type(x).__name__} and {type(z).__name__}"
        )
    if len(x.shape) != len(z.tile_shape):
        raise ShapeError(
            f"tile.load_like: `{x.name}` has rank {len(x.shape)}, "
            f"the tile of `{z.name}` {z.tile_shape} has rank "
            f"{len(z.tile_shape)}"
        )
    own = z.own_index(f"tile.load_like({x.name}, {z.name})")
    return x.partition(z.tile_shape).load(own)
