"""What `Tensor[T]` and `Partition[T]` parameters are *inside* a kernel body.

On the host a `Tensor` owns a buffer and a `Partition` owns a tensor cut into tiles; inside the body each tile
block sees views of the same memory:

- `TensorView` (a `Tensor[T]` parameter): the whole tensor, read-only.  `x.load(index, shape)` and
  `x.partition(shape).load(index)` read one tile, indices in tile units.
- `PartitionView` (a `Partition[T]` parameter): the block's own tile of an output, `z.load()` / `z.store(t)`.
  The same class, read-only and without an own tile, is what `x.partition(shape)` gives inside a kernel.

Bounds (cutile-rs's semantics): a tile index must lie in `[0, num_tiles)` on every axis, otherwise the kernel
traps (`KernelTrapError` naming kernel, parameter, index and tile count).  The last tile on an axis may stick
out past the tensor's edge when the shape does not divide: its load is padded with zeros and its store is
masked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from safekernels.dtypes import DType
from safekernels.errors import KernelTrapError, ShapeError
from safekernels.tile.context import require_block
from safekernels.tile.ops import Array, Shape, load_padded, store_masked
from safekernels.tile.tile_value import Tile


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

    def __repr__(self) -> str:
        return f"TensorView[{self.dtype}]({self.name}, shape={self.shape})"


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
