"""The module functions of `safekernels.tile`: what kernel bodies call (docs/tile.md "Op reference").

Each value op is a one-line call into the op table (`ops.OPS`); memory ops go to the parameter views; grid ops
read the running block.  `zeros` and `full` serve two worlds: inside a kernel body they build a `Tile`, on the
host a lazy `DeviceOp` of a `Tensor` (`tile.context.current_block()` decides).  Because of that dual use their
declared return type is `Any` (a union would break kernel code); the mypy plugin types the host calls as
`DeviceOp[Tensor[T]]`.  The host-only `arange` and `from_numpy` are typed precisely here (`tile.host`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar, overload

from safekernels.dtypes import dtype_of
from safekernels.runtime.device import Device
from safekernels.runtime.device_op import DeviceOp
from safekernels.tile import host
from safekernels.tile.context import current_block, require_block
from safekernels.tile.host import ST
from safekernels.tile.ops import Shape
from safekernels.tile.tensor import Partition, Tensor
from safekernels.tile.tile_value import Tile, apply, create
from safekernels.tile.views import AtomicView, PartitionView, TensorView, as_shape
from safekernels.tile.views import load_like as _view_load_like

T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")


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


def gather(x: Tensor[T], index: Any, mask: Tile[Any] | None = None, other: Any = 0) -> Tile[T]:
    """`x`'s elements at per-axis integer index tiles (one per axis of `x`, broadcast together with `mask`);
    lanes whose index lies outside `x`, or whose mask is false, read `other`."""
    require_block("tile.gather")
    if not isinstance(x, TensorView):
        raise TypeError("tile.gather(x, index) reads a Tensor parameter")
    return x.gather(index, mask, other)


def scatter(z: Partition[T], index: Any, values: Tile[T] | float, mask: Tile[Any] | None = None) -> None:
    """Write `values` into output partition `z` at per-axis element indices; lanes outside the block's own
    tile, outside the tensor or masked off are dropped (a block writes only the tile it owns)."""
    require_block("tile.scatter")
    if not isinstance(z, PartitionView):
        raise TypeError("tile.scatter(z, index, values) writes a Partition parameter")
    z.scatter(index, values, mask)


def _atomic(op: str, acc: Any, index: Any, values: Any, mask: Any) -> None:
    require_block(f"tile.{op}")
    if not isinstance(acc, AtomicView):
        raise TypeError(f"tile.{op}(acc, index, values) updates an AtomicTensor parameter")
    acc.atomic(op, index, values, mask)


def atomic_add(acc: Any, index: Any, values: Tile[Any] | float, mask: Tile[Any] | None = None) -> None:
    """`acc[index] += values` for every live lane, atomically across tile blocks (AtomicTensor parameters)."""
    _atomic("atomic_add", acc, index, values, mask)


def atomic_max(acc: Any, index: Any, values: Tile[Any] | float, mask: Tile[Any] | None = None) -> None:
    """`acc[index] = max(acc[index], values)`, atomically (AtomicTensor parameters)."""
    _atomic("atomic_max", acc, index, values, mask)


def atomic_min(acc: Any, index: Any, values: Tile[Any] | float, mask: Tile[Any] | None = None) -> None:
    """`acc[index] = min(acc[index], values)`, atomically (AtomicTensor parameters)."""
    _atomic("atomic_min", acc, index, values, mask)


class TileFunction(Generic[P, R]):
    """A `@tile.function` helper: called from tile kernels (and other helpers) with tiles and scalars.

    On the CPU executor it is a plain call; the tile compiler inlines its body at each call site, so a
    helper costs nothing at run time.  Its body follows the kernel rules and ends in `return <value>` (or
    returns nothing)."""

    def __init__(self, fn: Callable[P, R]) -> None:
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        require_block(f"tile.function `{self.fn.__name__}`")
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<tile.function {self.fn.__name__}>"


def function(fn: Callable[P, R]) -> TileFunction[P, R]:
    """Decorator: a helper that tile kernels (and other helpers) may call."""
    return TileFunction(fn)


# -- elementwise and math ------------------------------------------------------------------------------------


def where(cond: Tile[Any] | bool, a: Tile[T] | float, b: Tile[T] | float) -> Tile[T]:
    """Elementwise `a if cond else b` (shapes broadcast; a bool scalar `cond` picks one side for the whole tile)."""
    return apply("where", cond, a, b)


def maximum(a: Tile[T] | float, b: Tile[T] | float) -> Tile[T]:
    return apply("maximum", a, b)


def minimum(a: Tile[T] | float, b: Tile[T] | float) -> Tile[T]:
    return apply("minimum", a, b)


def exp(t: Tile[T]) -> Tile[T]:
    return apply("exp", t)


def exp2(t: Tile[T]) -> Tile[T]:
    """`2 ** t`: with a scale already in log2 units (softmax's `exp(s * scale - m)` written as
    `exp2(s * (scale * log2(e)) - m2)`) one multiply cheaper per element than `exp`, same accuracy contract."""
    return apply("exp2", t)


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


def scan(t: Tile[T], axis: int = -1, op: str = "add") -> Tile[T]:
    """Inclusive prefix `op` ("add", "max" or "min") along `axis`; the shape is kept."""
    return apply("scan", t, axis=axis, op=op)


def cumsum(t: Tile[T], axis: int = -1) -> Tile[T]:
    """Inclusive prefix sum along `axis` (`scan(t, axis, "add")`)."""
    return apply("scan", t, axis=axis, op="add")


def argmax(t: Tile[Any], axis: int | None = None, keepdims: bool = False) -> Tile[Any]:
    """Index (i32) of the first maximum along `axis` (of the flattened tile when None)."""
    return apply("argmax", t, axis=axis, keepdims=keepdims)


def argmin(t: Tile[Any], axis: int | None = None, keepdims: bool = False) -> Tile[Any]:
    """Index (i32) of the first minimum along `axis` (of the flattened tile when None)."""
    return apply("argmin", t, axis=axis, keepdims=keepdims)


def broadcast_to(t: Tile[T], shape: Any) -> Tile[T]:
    """`t` broadcast to `shape` (numpy's right-aligned rules)."""
    return apply("broadcast_to", t, shape=as_shape(shape, "tile.broadcast_to"))


def reshape(t: Tile[T], shape: Any) -> Tile[T]:
    """Same elements (row-major), new shape."""
    return apply("reshape", t, shape=as_shape(shape, "tile.reshape"))


def transpose(t: Tile[T]) -> Tile[T]:
    """Swap the two axes of a rank-2 tile."""
    return apply("transpose", t)


def matmul(a: Tile[Any], b: Tile[Any], acc: Tile[Any], *, input_precision: str = "ieee") -> Tile[Any]:
    """`a @ b + acc`: f16/bf16/fp8 (or f32) inputs, f32 accumulator and result (tensor cores on the GPU).

    `input_precision="tf32"` (a string literal) rounds every input element to TF32 first, so f32 inputs run on
    TF32 tensor cores; the default `"ieee"` multiplies them exactly (FMA units for f32)."""
    return apply("matmul", a, b, acc, input_precision=input_precision)


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
    "TileFunction",
    "arange",
    "argmax",
    "argmin",
    "atomic_add",
    "atomic_max",
    "atomic_min",
    "bid",
    "broadcast_to",
    "cos",
    "cumsum",
    "exp",
    "exp2",
    "from_numpy",
    "full",
    "function",
    "gather",
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
    "scan",
    "scatter",
    "sin",
    "sqrt",
    "sum",
    "tanh",
    "transpose",
    "where",
    "zeros",
]
