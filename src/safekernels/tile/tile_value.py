"""`Tile[T]`: an immutable block of values that lives in registers while one tile block runs.

On the CPU executor a tile is a numpy array in its dtype's compute representation (`ops.compute_dtype`) plus
the safekernels `DType` it stands for (numpy cannot represent bf16, and a float16 array must not silently
become float32).  Every operation goes through `apply`, which looks the op up in `ops.OPS`, type-checks it
with the op's rule and runs its CPU column: the operators here are only spelling.

Python scalars (and numpy scalars, kernel scalar parameters) are *weakly typed*: `t * 0.5` takes `t`'s dtype,
as a literal does on the GPU.  A float scalar with an integer tile is an error rather than a silent promotion.
"""

from __future__ import annotations

import numbers
from typing import Any, Generic, TypeVar

import numpy as np

from safekernels.dtypes import DType, dtype_of
from safekernels.tile.ops import Array, Shape, TileType, apply_values, finish, where_scalar_dtype

T = TypeVar("T")


class Tile(Generic[T]):
    """A tile value (kernel-side only).  Operators: `+ - * /`, integer `// % & | ^ << >> ~`, unary `-`,
    comparisons (-> bool tiles)."""

    __slots__ = ("_data", "_dtype")
    __hash__ = None  # type: ignore[assignment]  # `==` builds a bool tile

    def __init__(self, data: Array, dtype: DType) -> None:
        self._data = data
        self._dtype = dtype

    @property
    def shape(self) -> Shape:
        return tuple(self._data.shape)

    @property
    def dtype(self) -> DType:
        return self._dtype

    @property
    def type(self) -> TileType:
        return TileType(self.shape, self._dtype)

    def numpy(self) -> Array:
        """The values as a numpy array (bf16 as float32); for debugging and tests."""
        return np.array(self._data)

    def astype(self, dtype: Any) -> Tile[Any]:
        """Convert the element type (`t.astype(f16)`); floats convert to ints by truncation."""
        return apply("astype", self, dtype=dtype_of(dtype))

    # -- operators ------------------------------------------------------------------------------------------
    def __add__(self, other: Any) -> Tile[T]:
        return apply("add", self, other)

    def __radd__(self, other: Any) -> Tile[T]:
        return apply("add", other, self)

    def __sub__(self, other: Any) -> Tile[T]:
        return apply("sub", self, other)

    def __rsub__(self, other: Any) -> Tile[T]:
        return apply("sub", other, self)

    def __mul__(self, other: Any) -> Tile[T]:
        return apply("mul", self, other)

    def __rmul__(self, other: Any) -> Tile[T]:
        return apply("mul", other, self)

    def __truediv__(self, other: Any) -> Tile[T]:
        return apply("truediv", self, other)

    def __rtruediv__(self, other: Any) -> Tile[T]:
        return apply("truediv", other, self)

    def __neg__(self) -> Tile[T]:
        return apply("neg", self)

    def __floordiv__(self, other: Any) -> Tile[T]:
        return apply("floordiv", self, other)

    def __rfloordiv__(self, other: Any) -> Tile[T]:
        return apply("floordiv", other, self)

    def __mod__(self, other: Any) -> Tile[T]:
        return apply("mod", self, other)

    def __rmod__(self, other: Any) -> Tile[T]:
        return apply("mod", other, self)

    def __and__(self, other: Any) -> Tile[T]:
        return apply("bitand", self, other)

    def __rand__(self, other: Any) -> Tile[T]:
        return apply("bitand", other, self)

    def __or__(self, other: Any) -> Tile[T]:
        return apply("bitor", self, other)

    def __ror__(self, other: Any) -> Tile[T]:
        return apply("bitor", other, self)

    def __xor__(self, other: Any) -> Tile[T]:
        return apply("bitxor", self, other)

    def __rxor__(self, other: Any) -> Tile[T]:
        return apply("bitxor", other, self)

    def __lshift__(self, other: Any) -> Tile[T]:
        return apply("lshift", self, other)

    def __rlshift__(self, other: Any) -> Tile[T]:
        return apply("lshift", other, self)

    def __rshift__(self, other: Any) -> Tile[T]:
        return apply("rshift", self, other)

    def __rrshift__(self, other: Any) -> Tile[T]:
        return apply("rshift", other, self)

    def __invert__(self) -> Tile[T]:
        return apply("invert", self)

    def __lt__(self, other: Any) -> Tile[Any]:
        return apply("lt", self, other)

    def __le__(self, other: Any) -> Tile[Any]:
        return apply("le", self, other)

    def __gt__(self, other: Any) -> Tile[Any]:
        return apply("gt", self, other)

    def __ge__(self, other: Any) -> Tile[Any]:
        return apply("ge", self, other)

    def __eq__(self, other: Any) -> Tile[Any]:  # type: ignore[override]
        return apply("eq", self, other)

    def __ne__(self, other: Any) -> Tile[Any]:  # type: ignore[override]
        return apply("ne", self, other)

    def __bool__(self) -> bool:
        raise TypeError(
            "a tile has no single truth value (it would need a data-dependent branch per element); "
            "use tile.where(cond, a, b)"
        )

    def __repr__(self) -> str:
        return f"Tile[{self._dtype}, {self.shape}]"


def _scalar_tile(value: Any, like: DType) -> Tile[Any]:
    """A weakly typed scalar operand as a 0-d tile of the other operand's dtype."""
    if isinstance(value, numbers.Integral | np.bool_):
        return Tile(finish(np.asarray(int(value)), like), like)
    if isinstance(value, numbers.Real):
        if not like.is_float:
            raise TypeError(
                f"cannot combine a float scalar ({value!r}) with a {like} tile; use .astype(f32) on the tile"
            )
        return Tile(finish(np.asarray(float(value)), like), like)
    raise TypeError(f"tile operands must be tiles or numbers, got {type(value).__name__}")


def _scalar_dtype(value: Any) -> Any:
    """A scalar operand's dtype as the compiler types it: a float literal is f32, an int literal untyped."""
    if isinstance(value, bool | np.bool_):
        return dtype_of("bool")
    if isinstance(value, np.generic):
        return dtype_of(value.dtype)
    return dtype_of("f32") if isinstance(value, float) else None


def apply(name: str, *operands: Any, **attrs: Any) -> Tile[Any]:
    """Run op `name` of `ops.OPS` on tiles (numbers among the operands take the first tile's dtype)."""
    value_operands = operands[1:] if name == "where" else operands  # where's condition is bool, not the dtype
    like = next((o.dtype for o in value_operands if isinstance(o, Tile)), None)
    if like is None and name == "where" and operands and isinstance(operands[0], Tile):
        like = where_scalar_dtype([_scalar_dtype(v) for v in value_operands])
    tiles: list[Tile[Any]] = []
    for operand in operands:
        if isinstance(operand, Tile):
            tiles.append(operand)
        elif name == "where" and isinstance(operand, bool | np.bool_):
            # a bool scalar in `where` (a scalar condition: `tile.where(n > 2, t, 0.0)`) is a 0-d bool tile, as
            # the front end types it; it once took the values' dtype here and was refused where the GPU ran it
            tiles.append(Tile(np.asarray(bool(operand)), dtype_of("bool")))
        elif like is None:
            raise TypeError(f"tile.{name} needs at least one tile operand")
        else:
            tiles.append(_scalar_tile(operand, like))
    result_type, data = apply_values(name, [t.type for t in tiles], [t._data for t in tiles], **attrs)
    return Tile(data, result_type.dtype)


def create(name: str, **attrs: Any) -> Tile[Any]:
    """Run a creation op (`zeros`, `full`, `iota`) of `ops.OPS`."""
    result_type, data = apply_values(name, [], [], **attrs)
    return Tile(np.array(data), result_type.dtype)
