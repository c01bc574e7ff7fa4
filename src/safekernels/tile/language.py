"""The module functions of `safekernels.tile`: what kernel bodies call (SPEC §4 "Ops").

Each value op is a one-line call into the op table (`ops.OPS`); memory ops go to the parameter views; grid ops
read the running block.  `zeros` and `full` serve two worlds: inside a kernel body they build a `Tile`, on the
host a lazy `DeviceOp` of a `Tensor` (`tile.context.current_block()` decides).  Because of that dual use their
declared return type is `Any` (a union would break kernel code); the mypy plugin types the host calls as
`DeviceOp[Tensor[T]]`.  The host-only `arange` and `from_numpy` are typed precisely here (`tile.host`).
"""

from __future__ import annotations

from typing import Any, TypeVar, overload

from safekernels.dtypes import dtype_of
from safekernels.runtime.device import Device
from safekernels.runtime.device_op import DeviceOp
from safekernels.tile import host
from safekernels.tile.context import current_block, require_block
from safekernels.tile.host import ST
from safekernels.tile.ops import Shape
from safekernels.tile.tensor import Partition, Tensor
from safekernels.tile.tile_value import Tile, apply, create
from safekernels.tile.views import PartitionView, TensorView, as_shape
from safekernels.tile.views import load_like as _view_load_like

T = TypeVar("T")


# -- memory and grid -----------------------------------------------------------------------------------------


def load_like(x: Tensor[T], z: Partition[Any]) -> Tile[T]:
    """`x`'s tile at `z`'s tile-block position, shaped like `z`'s tile (zero-padded past `x`'s edge)."""
    require_block("tile.load_like")
    if not isinstance(x, TensorView) or not isinstance(z, PartitionView):
        raise TypeError("tile.load_like(x, z) takes a Tensor parameter and a Partition parameter")
    return _view_load_like(x, z)


def bid(axis: int) -> int:
    """This tile block's index along grid axis `axis` (0 = the first/row axis; 0 beyond the grid's rank)."""
    ctx = require_block("tile.bid")
    return ctx.block[axis] if axis < len(ctx.block) else 0


def num_blocks(axis: int) -> int:
    """The grid's extent along `axis` (1 beyond the grid's rank)."""
    ctx = require_block("tile.num_blocks")
    return ctx.grid[axis] if axis < len(ctx.grid) else 1


# -- elementwise and math ------------------------------------------------------------------------------------


def where(cond: Tile[Any], a: Tile[T] | float, b: Tile[T] | float) -> Tile[T]:
    """Elementwise `a if cond else b` (shapes broadcast)."""
    return apply("where", cond, a, b)


def maximum(a: Tile[T] | float, b: Tile[T] | float) -> Tile[T]:
    return apply("maximum", a, b)


def minimum(a: Tile[T] | float, b: Tile[T] | float) -> Tile[T]:
    return apply("minimum", a, b)


def exp(t: Tile[T]) -> Tile[T]:
    return apply("exp", t)


def log(t: Tile[T]) -> Tile[T]:
    return apply("log", t)


def sqrt(t: Tile[T]) -> Tile[T]:
    return apply("sqrt", t)


def rsqrt(t: Tile[T]) -> Tile[T]:
    return apply("rsqrt", t)


def tanh(t: Tile[T]) -> Tile[T]:
    return apply("tanh", t)


def sin(t: Tile[T]) -> Tile[T]:
    return apply("sin", t)


def cos(t: Tile[T]) -> Tile[T]:
    return apply("cos", t)


# -- reductions and shape ------------------------------------------------------------------------------------


def sum(t: Tile[T], axis: int | None = None, keepdims: bool = False) -> Tile[T]:
    """Sum along `axis` (all axes when None); the axis is dropped unless `keepdims`."""
    return apply("sum", t, axis=axis, keepdims=keepdims)


def max(t: Tile[T], axis: int | None = None, keepdims: bool = False) -> Tile[T]:
    """Maximum along `axis`."""
    return apply("max", t, axis=axis, keepdims=keepdims)


def min(t: Tile[T], axis: int | None = None, keepdims: bool = False) -> Tile[T]:
    """Minimum along `axis`."""
    return apply("min", t, axis=axis, keepdims=keepdims)


def broadcast_to(t: Tile[T], shape: Any) -> Tile[T]:
    """`t` broadcast to `shape` (numpy's right-aligned rules)."""
    return apply("broadcast_to", t, shape=as_shape(shape, "tile.broadcast_to"))


def reshape(t: Tile[T], shape: Any) -> Tile[T]:
    """Same elements (row-major), new shape."""
    return apply("reshape", t, shape=as_shape(shape, "tile.reshape"))


def transpose(t: Tile[T]) -> Tile[T]:
    """Swap the two axes of a rank-2 tile."""
    return apply("transpose", t)


def matmul(a: Tile[Any], b: Tile[Any], acc: Tile[Any]) -> Tile[Any]:
    """`a @ b + acc`: f16/bf16 (or f32) inputs, f32 accumulator and result (tensor cores on the GPU)."""
    return apply("matmul", a, b, acc)


# -- creation (dual use: kernel tiles or host tensors) -------------------------------------------------------


def zeros(shape: Any, dtype: Any, *, device: Device | None = None) -> Any:
    """In a kernel: a tile of zeros.  On the host: `DeviceOp[Tensor]` of zeros."""
    if current_block() is None:
        return host.zeros(shape, dtype, device=device)
    return create("zeros", shape=_tile_shape(shape, "tile.zeros"), dtype=dtype_of(dtype))


def full(shape: Any, value: Any, dtype: Any, *, device: Device | None = None) -> Any:
    """In a kernel: a tile filled with `value`.  On the host: `DeviceOp[Tensor]` filled with `value`."""
    if current_block() is None:
        return host.full(shape, value, dtype, device=device)
    return create("full", shape=_tile_shape(shape, "tile.full"), value=value, dtype=dtype_of(dtype))


def ones(shape: Any, dtype: Any, *, device: Device | None = None) -> Any:
    """In a kernel: a tile of ones.  On the host: `DeviceOp[Tensor]` of ones."""
    if current_block() is None:
        return host.ones(shape, dtype, device=device)
    return create("full", shape=_tile_shape(shape, "tile.ones"), value=1, dtype=dtype_of(dtype))


def iota(n: int, dtype: Any) -> Tile[Any]:
    """Kernel only: the 1-D tile `0, 1, ..., n-1`."""
    require_block("tile.iota")
    return create("iota", n=as_shape(n, "tile.iota")[0], dtype=dtype_of(dtype))


@overload
def arange(n: int, dtype: type[ST], *, device: Device | None = None) -> DeviceOp[Tensor[ST]]: ...
@overload
def arange(n: int, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]: ...
def arange(n: int, dtype: Any, *, device: Device | None = None) -> DeviceOp[Tensor[Any]]:
    """Host: `DeviceOp[Tensor]` of `0, 1, ..., n-1` (inside kernels use `tile.iota`)."""
    if current_block() is not None:
        return iota(n, dtype)  # type: ignore[return-value]
    return host.arange(n, dtype, device=device)


from_numpy = host.from_numpy


def _tile_shape(shape: Any, what: str) -> Shape:
    return as_shape(shape, what)


__all__ = [
    "arange",
    "bid",
    "broadcast_to",
    "cos",
    "exp",
    "from_numpy",
    "full",
    "iota",
    "load_like",
    "log",
    "matmul",
    "max",
    "maximum",
    "min",
    "minimum",
    "num_blocks",
    "ones",
    "reshape",
    "rsqrt",
    "sin",
    "sqrt",
    "sum",
    "tanh",
    "transpose",
    "where",
    "zeros",
]
