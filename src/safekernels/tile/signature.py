"""A tile kernel's parameters, read from its annotations, and the launch-time shape check.

Each parameter is one of (the mode comes from `ownership_model.PARAM_MODES`, the one ownership table):
- `Partition[T]` (MOVE): an exclusive output tile per block; several partitions must agree on the grid;
- `Tensor[T]` (MOVE): a shared read-only whole tensor;
- `AtomicTensor[T]` (MOVE): a whole output tensor every block updates only through `tile.atomic_*` (kind
  "atomic"; the host passes a Tensor);
- a scalar (`f32`, `i32`, ..., or `int`/`float`/`bool`; VALUE): converted with its dtype at launch.

`Annotated[Tensor[f32], Dims(-1, 64)]` declares dims.  For a `Tensor` they describe the whole tensor's shape,
for a `Partition` its tile shape.  Each entry is `-1` (any extent), a positive int (that extent), or a name: a
name binds to the first extent it meets, partitions first (so `Dims("BN")` on an output and `Dims(-1, "BN")`
on an input tie the input's columns to the output's tile width), and must match everywhere else.  Violations
raise `ShapeError` naming the kernel, the parameter, the expected and the actual value.

The same check refuses the disagreements a kernel's loads imply (`shape_ties`: `tile.load_like(x, z)` wants
`x` shaped like `z`'s tensor) unless the kernel declared the parameters independent.
"""

from __future__ import annotations

import inspect
import numbers
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from safekernels.dtypes import DType, ScalarType, dtype_of
from safekernels.errors import ShapeError
from safekernels.ownership_model import ParamMode, param_mode
from safekernels.tile.ops import Shape
from safekernels.tile.shape_ties import ShapeTie
from safekernels.tile.tensor import Partition, Tensor, TensorSpec
from safekernels.tile.views import AtomicTensor, tile_grid


class Dims:
    """Declared dims of a tile parameter: `Dims(-1, 64)`, `Dims("BM", "BN")` (see the module doc)."""

    __slots__ = ("dims",)

    def __init__(self, *dims: int | str) -> None:
        for d in dims:
            ok_int = isinstance(d, int) and not isinstance(d, bool) and (d == -1 or d > 0)
            if not (ok_int or (isinstance(d, str) and d.isidentifier())):
                raise TypeError(f"Dims entries are -1, positive ints or names, got {d!r}")
        self.dims: tuple[int | str, ...] = dims

    def __repr__(self) -> str:
        return f"Dims({', '.join(repr(d) for d in self.dims)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dims) and other.dims == self.dims

    def __hash__(self) -> int:
        return hash(self.dims)


@dataclass(frozen=True)
class TileParam:
    name: str
    kind: str  # "partition" | "tensor" | "atomic" | "scalar"
    dtype: DType | None  # None: any dtype (a TypeVar element type)
    dims: Dims | None = None
    cast: Callable[[Any], Any] | None = None  # scalars

    @property
    def moves(self) -> bool:
        return self.kind != "scalar"


def _integer_cast(kernel: str, name: str, origin: Any, dt: DType) -> Callable[[Any], Any]:
    """The launch conversion of an integer scalar argument: an integer (or bool) that fits `dt`, else the
    `TypeError` / `OverflowError` a SIMT launch gives (a tile launch once wrapped 300 to 44 for an i8)."""
    low, high = (-(1 << (dt.bits - 1)), (1 << (dt.bits - 1)) - 1) if dt.kind == "i" else (0, (1 << dt.bits) - 1)

    def cast(value: Any) -> Any:
        if not isinstance(value, numbers.Integral):
            raise TypeError(
                f"{kernel}: argument `{name}` expects an integer ({dt.name}), got {type(value).__name__} {value!r}"
            )
        as_int = int(value)
        if not low <= as_int <= high:
            raise OverflowError(f"{kernel}: argument `{name}` = {as_int} does not fit in {dt.name}")
        return origin(as_int)

    return cast


def _element_dtype(annotation: Any) -> DType | None:
    args = typing.get_args(annotation)
    if not args or isinstance(args[0], typing.TypeVar) or args[0] is Any:
        return None
    return dtype_of(args[0])


def parse_params(fn: Callable[..., Any], localns: dict[str, Any] | None) -> list[TileParam]:
    """The kernel's parameters from its annotations (raises TypeError for unsupported ones)."""
    try:
        hints = typing.get_type_hints(fn, globalns=fn.__globals__, localns=localns, include_extras=True)
    except NameError as exc:
        raise TypeError(
            f"tile kernel `{fn.__name__}`: cannot resolve a parameter annotation: {exc}"
        ) from None
    params: list[TileParam] = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            raise TypeError(
                f"tile kernel `{fn.__name__}`: parameter `{p.name}` must be a plain positional parameter"
            )
        if p.name not in hints:
            raise TypeError(f"tile kernel `{fn.__name__}`: parameter `{p.name}` needs an annotation")
        annotation = hints[p.name]
        dims: Dims | None = None
        if typing.get_origin(annotation) is typing.Annotated:
            base, *extras = typing.get_args(annotation)
            dims = next((e for e in extras if isinstance(e, Dims)), None)
            annotation = base
        origin = typing.get_origin(annotation) or annotation
        mode = param_mode(getattr(origin, "__name__", ""))
        if mode is ParamMode.MOVE and origin in (Tensor, Partition, AtomicTensor):
            kind = "partition" if origin is Partition else "atomic" if origin is AtomicTensor else "tensor"
            params.append(TileParam(p.name, kind, _element_dtype(annotation), dims))
        elif mode is ParamMode.VALUE and (
            origin in (int, float, bool) or (isinstance(origin, type) and issubclass(origin, ScalarType))
        ):
            if dims is not None:
                raise TypeError(f"tile kernel `{fn.__name__}`: Dims on scalar parameter `{p.name}`")
            dt = dtype_of(origin)
            cast = _integer_cast(fn.__name__, p.name, origin, dt) if dt.kind in ("i", "u") else origin
            params.append(TileParam(p.name, "scalar", dt, None, cast))
        else:
            raise TypeError(
                f"tile kernel `{fn.__name__}`: parameter `{p.name}: {annotation!r}` is not a tile parameter "
                "(use Partition[T] for outputs, Tensor[T] for inputs, or a scalar type)"
            )
    if not any(p.kind == "partition" for p in params):
        raise TypeError(
            f"tile kernel `{fn.__name__}` has no Partition parameter: the launch grid comes from the output "
            "partition (e.g. z: Partition[f32], launched with tensor.partition((128,)))"
        )
    return params


def check_launch_shapes(
    kernel: str,
    params: Sequence[TileParam],
    specs: Sequence[TensorSpec | None],
    ties: Sequence[ShapeTie] = (),
) -> Shape | None:
    """Check dtypes, declared Dims, grid agreement and the shapes `ties` (the kernel's loads) imply; returns
    the grid when every partition is known.

    `specs[i]` describes the argument of `params[i]` (None: a scalar, or not known yet).
    """
    grid: Shape | None = None
    grid_owner = ""
    bound: dict[str, tuple[int, str]] = {}
    order = sorted(range(len(params)), key=lambda i: params[i].kind != "partition")
    for i in order:
        param, spec = params[i], specs[i]
        if spec is None or param.kind == "scalar":
            continue
        if param.dtype is not None and spec.dtype != param.dtype:
            raise TypeError(
                f"{kernel}: parameter `{param.name}` expects {param.kind.capitalize()}[{param.dtype}], got a "
                f"{spec.dtype} tensor"
            )
        if param.kind == "partition":
            assert spec.tile_shape is not None
            actual, what = spec.tile_shape, "tile shape"
            this_grid = tile_grid(spec.shape, spec.tile_shape)
            if grid is None:
                grid, grid_owner = this_grid, param.name
            elif this_grid != grid:
                raise ShapeError(
                    f"{kernel}: launch grid {this_grid} of partition `{param.name}` does not match the grid "
                    f"{grid} of partition `{grid_owner}`"
                )
        else:
            actual, what = spec.shape, "shape"
        if param.dims is None:
            continue
        expected = param.dims.dims
        if len(expected) != len(actual):
            raise ShapeError(
                f"{kernel}: parameter `{param.name}` expects a rank-{len(expected)} {what} {param.dims}, "
                f"got {what} {actual}"
            )
        for axis, (want, got) in enumerate(zip(expected, actual, strict=True)):
            if isinstance(want, str):
                if want not in bound:
                    bound[want] = (got, f"{what} of `{param.name}`")
                    continue
                value, source = bound[want]
                if got != value:
                    raise ShapeError(
                        f"{kernel}: parameter `{param.name}` {what} dim {axis}: expected {want} = {value} "
                        "(bound by "
                        f"the {source}), got {got} ({what} {actual}, declared {param.dims})"
                    )
            elif want != -1 and got != want:
                raise ShapeError(
                    f"{kernel}: parameter `{param.name}` {what} dim {axis}: expected {want}, got {got} "
                    f"({what} {actual}, declared {param.dims})"
                )
    for tie in ties:
        reader, like = specs[tie.reader], specs[tie.like]
        if reader is not None and like is not None and reader.shape != like.shape:
            raise _tie_error(kernel, params, tie, reader.shape, like.shape)
    return grid


def _tie_error(kernel: str, params: Sequence[TileParam], tie: ShapeTie, got: Shape, want: Shape) -> ShapeError:
    x, z = params[tie.reader].name, params[tie.like].name
    return ShapeError(
        f"{kernel}: parameter `{x}` has shape {got}, but `tile.load_like({x}, {z})` at {tie.path}:{tie.line} "
        f"reads it at the tile positions of `{z}`, whose tensor has shape {want} (help: pass tensors of one "
        f"shape, or declare them independent with `@tile.kernel(independent_shapes=(\"{x}\",))` to read zeros "
        f"past `{x}`'s edge)"
    )


def independent_ties(
    kernel: str, params: Sequence[TileParam], ties: Sequence[ShapeTie], independent: Sequence[str]
) -> tuple[ShapeTie, ...]:
    """`ties` without those of the parameters declared independent (each name must be a tensor parameter)."""
    names = {p.name: p for p in params}
    for name in independent:
        param = names.get(name) if isinstance(name, str) else None
        if param is None or param.kind == "scalar":
            choices = ", ".join(p.name for p in params if p.kind != "scalar")
            raise TypeError(
                f"tile kernel `{kernel}`: independent_shapes names {name!r}, which is not a Tensor or Partition "
                f"parameter (parameters: {choices})"
            )
    dropped = {i for i, p in enumerate(params) if p.name in independent}
    return tuple(t for t in ties if t.reader not in dropped and t.like not in dropped)
