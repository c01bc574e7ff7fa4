"""`tile.specialize(kernel, *args)`: declare the shapes a tile kernel is built for ahead of time.

A tile kernel compiles per specialization (each argument's dtype, rank, tile shape for partitions, and whether
its base and last extent allow 16-byte vector access).  A launch specializes itself; `safekernels build`
cannot launch, so a file declares the specializations to build:

    tile.specialize(add, tile.spec((1024,), f32, tile=(128,)), tile.spec((1024,), f32), tile.spec((1024,), f32))

One argument per kernel parameter: `tile.spec(shape, dtype)` for a Tensor, `tile.spec(shape, dtype,
tile=tile_shape)` for a Partition, a dtype (`i32`) or a value for a scalar.  Declaring does nothing at run time
but record the tuple on the kernel (cheap, no compilation); `safekernels build FILE` compiles every declared
specialization, or those given with `--specialize`.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from safekernels.dtypes import DType, dtype_of
from safekernels.tile.tensor import TensorSpec

_DECLARED: weakref.WeakKeyDictionary[Any, list[tuple[Any, ...]]] = weakref.WeakKeyDictionary()


def spec(shape: Sequence[int] | int, dtype: Any, *, tile: Sequence[int] | int | None = None) -> TensorSpec:
    """The static description of one tensor (or, with `tile=`, one partition) argument."""
    dims = (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)
    tile_shape = None if tile is None else ((int(tile),) if isinstance(tile, int) else tuple(int(t) for t in tile))
    if tile_shape is not None and len(tile_shape) != len(dims):
        raise ValueError(f"tile.spec: tile shape {tile_shape} does not match the rank of shape {dims}")
    return TensorSpec(dims, dtype_of(dtype), tile_shape)


def specialize(kernel: Any, *args: Any) -> Any:
    """Record one specialization of `kernel` to build ahead of time; returns `kernel`."""
    params = getattr(kernel, "params", None)
    if params is None or type(kernel).__name__ not in ("TileKernel", "AutotunedTileKernel"):
        raise TypeError(f"tile.specialize takes a @tile.kernel first, got {kernel!r}")
    if len(args) != len(params):
        names = ", ".join(p.name for p in params)
        raise TypeError(
            f"tile.specialize({kernel.name}, ...): {len(params)} arguments expected ({names}), got {len(args)}"
        )
    for param, arg in zip(params, args, strict=True):
        check_argument(kernel.name, param, arg)
    _DECLARED.setdefault(kernel, []).append(tuple(args))
    return kernel


def check_argument(kernel: str, param: Any, arg: Any) -> None:
    """A clear `TypeError` when `arg` cannot specialize `param` (a Partition needs a tile shape, ...)."""
    if param.kind == "scalar":
        if isinstance(arg, TensorSpec):
            raise TypeError(f"{kernel}: parameter `{param.name}` is a scalar; give its dtype, not a tensor spec")
        return
    if not isinstance(arg, TensorSpec):
        raise TypeError(
            f"{kernel}: parameter `{param.name}` needs tile.spec(shape, dtype"
            f"{', tile=...' if param.kind == 'partition' else ''})"
        )
    if param.kind == "partition" and arg.tile_shape is None:
        raise TypeError(f"{kernel}: parameter `{param.name}` is a Partition: give tile.spec(shape, dtype, tile=...)")
    if param.kind != "partition" and arg.tile_shape is not None:
        raise TypeError(
            f"{kernel}: parameter `{param.name}` is a {param.kind.capitalize()}, not a Partition (no tile=)"
        )
    if param.dtype is not None and arg.dtype != param.dtype:
        raise TypeError(f"{kernel}: parameter `{param.name}` is {param.dtype.name}, the spec says {arg.dtype.name}")


def declared(kernel: Any) -> list[tuple[Any, ...]]:
    """The specializations declared for `kernel`, in declaration order."""
    return list(_DECLARED.get(kernel, ()))


def scalar_dtype(param: Any, arg: Any) -> DType:
    """The dtype a scalar argument of a specialization stands for."""
    if param.dtype is not None:
        return param.dtype  # type: ignore[no-any-return]
    try:
        return dtype_of(arg)
    except (TypeError, KeyError):
        return dtype_of("f32")
