"""The tile op table: every kernel-side op declared ONCE, as data.

Each `OpSpec` says three things about one op:

    name ──▶ infer(operand TileTypes, attrs) -> result TileType     (typing / shape rule)
         └─▶ cpu(operand arrays, attrs) -> numpy array               (what the CPU executor runs)
         └─▶ lowerings[target]                                        (filled in by codegen, issue 6)

The public functions of `safekernels.tile` (`tile.exp`, `tile.sum`, operators on `Tile`, ...) are thin calls
into this table, the CPU executor runs the `cpu` column, and the tile code generator walks a kernel's AST,
maps each call / operator to an entry here (`OPERATOR_OPS` maps Python's `ast` operator class names) and
reuses `infer` for its type checking.  Nothing about an op's meaning lives anywhere else.

Numeric conventions (the CPU column; the GPU lowering must match them):
- arrays are held in the *compute representation* of their dtype: f16 as float16, bf16 and the 8-bit floats
  (f8e4m3, f8e5m2) as float32 holding representable values, everything else as its own numpy type;
- f16 and bf16 ops compute in f32 and round the result to the tile's dtype once per op (this is what the GPU
  does for f16 arithmetic and what it must do for bf16 math, which has no native instructions for most ops);
- reductions of f16/bf16 accumulate in f32 and round once; `matmul` takes f16/bf16/f32/f8 inputs and accumulates
  in f32; `matmul(..., input_precision="tf32")` first rounds every input element to TF32 (`round_to_tf32`: 10
  stored mantissa bits, nearest with ties away from zero, as the GPU's `cvt.rna.tf32.f32`);
- integer `/` truncates toward zero (C / PTX `div.s`); integer `//` and `%` follow Python (floor, the
  remainder takes the divisor's sign); an integer division or remainder by zero traps (`KernelTrapError` on the
  CPU, `trap` on the GPU), and `MIN // -1` wraps to `MIN`; comparisons give `bool` tiles;
- shifts take the amount as unsigned: an amount of at least the bit width gives 0 for `<<` and the sign fill
  for `>>` (arithmetic for signed dtypes), never undefined behaviour;
- `scan` accumulates in the reduction's type (f32 for f16/bf16) and rounds each output once; `argmax`/`argmin`
  return the first index of the extreme value as i32 (NaN counts as the extreme, as numpy's).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from safekernels.dtypes import DType, dtype_of, from_f32, is_encoded, to_f32
from safekernels.errors import KernelTrapError, ShapeError

Array = npt.NDArray[Any]
Shape = tuple[int, ...]


@dataclass(frozen=True)
class TileType:
    """The static type of a tile: its shape and element type."""

    shape: Shape
    dtype: DType

    def __str__(self) -> str:
        return f"Tile[{self.dtype}, {self.shape}]"


@dataclass(frozen=True)
class OpSpec:
    """One op: its kind, typing rule and CPU implementation; `lowerings` is codegen's extension point."""

    name: str
    kind: str  # elementwise compare math select convert reduce scan argreduce shape matmul create
    infer: Callable[..., TileType]
    cpu: Callable[..., Array]
    doc: str
    lowerings: dict[str, Any] = field(default_factory=dict, compare=False)


# -- dtype helpers -------------------------------------------------------------------------------------------

BOOL: Final[DType] = dtype_of("bool")
F32: Final[DType] = dtype_of("f32")


def compute_dtype(dt: DType) -> np.dtype[Any]:
    """The numpy type arrays of `dt` are held in while a kernel runs (bf16 -> float32)."""
    return np.dtype(np.float32) if is_encoded(dt) else dt.storage


def finish(array: Any, dt: DType) -> Array:
    """Round `array` to `dt` and return it in `dt`'s compute representation (one rounding per op)."""
    arr = np.asarray(array)
    if is_encoded(dt):
        return to_f32(from_f32(arr.astype(np.float32), dt), dt)
    return arr.astype(dt.storage, copy=False)


def from_storage(array: Array, dt: DType) -> Array:
    """Storage (bf16: uint16 bit patterns) -> compute representation."""
    return to_f32(array, dt) if is_encoded(dt) else array


def to_storage(array: Array, dt: DType) -> Array:
    """Compute representation -> storage (bf16: round to bit patterns)."""
    return (
        from_f32(array.astype(np.float32), dt) if is_encoded(dt) else array.astype(dt.storage, copy=False)
    )


def _wide(a: Array) -> Array:
    """f16 / bf16 operands widen to f32 for the computation."""
    return a.astype(np.float32) if a.dtype in (np.float16,) else a


# -- typing rules --------------------------------------------------------------------------------------------


def broadcast_shapes(op: str, *shapes: Shape) -> Shape:
    """numpy's right-aligned broadcasting, with an error naming the op."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ShapeError(
            f"{op}: tile shapes {', '.join(str(s) for s in shapes)} do not broadcast together"
        ) from None


def _same_dtype(op: str, *types: TileType) -> DType:
    first = types[0].dtype
    for other in types[1:]:
        if other.dtype != first:
            raise TypeError(
                f"{op}: tiles have different dtypes ({first} and {other.dtype}); "
                "convert one with .astype(...)"
            )
    return first


def _infer_binary(op: str) -> Callable[..., TileType]:
    def infer(a: TileType, b: TileType) -> TileType:
        dt = _same_dtype(op, a, b)
        if op == "/" and dt == BOOL:
            raise TypeError("`/` of bool tiles is not supported; use .astype(f32) or .astype(i32) first")
        return TileType(broadcast_shapes(op, a.shape, b.shape), dt)

    return infer


def _infer_compare(op: str) -> Callable[..., TileType]:
    def infer(a: TileType, b: TileType) -> TileType:
        _same_dtype(op, a, b)
        return TileType(broadcast_shapes(op, a.shape, b.shape), BOOL)

    return infer


def _infer_float_unary(op: str) -> Callable[..., TileType]:
    def infer(a: TileType) -> TileType:
        if not a.dtype.is_float:
            raise TypeError(f"tile.{op} needs a floating-point tile, got {a.dtype}; use .astype(f32) first")
        return a

    return infer


def _infer_neg(a: TileType) -> TileType:
    if a.dtype == BOOL:
        raise TypeError("unary `-` of a bool tile is not supported; use `~` (logical not)")
    return a


def _infer_where(c: TileType, a: TileType, b: TileType) -> TileType:
    if c.dtype != BOOL:
        raise TypeError(f"tile.where: the condition must be a bool tile (a comparison), got {c.dtype}")
    return TileType(broadcast_shapes("where", c.shape, a.shape, b.shape), _same_dtype("where", a, b))


def where_scalar_dtype(values: list[DType | None]) -> DType:
    """The dtype of `tile.where(cond, x, y)` when `x` and `y` are both scalars (the condition a tile): a typed
    scalar's dtype (the first), else f32 when either is a float literal, bool for two bools, else i32."""
    typed = [v for v in values if v is not None and v.name not in ("f64", "i64", "bool")]
    if typed:
        return typed[0]
    if any(v is not None and v.is_float for v in values):
        return dtype_of("f32")
    if values and all(v is not None and v.name == "bool" for v in values):
        return BOOL
    return dtype_of("i32")


def _infer_astype(a: TileType, *, dtype: DType) -> TileType:
    return TileType(a.shape, dtype)


def normalize_axis(op: str, axis: int, rank: int) -> int:
    if not isinstance(axis, int) or not -rank <= axis < rank:
        raise ShapeError(f"tile.{op}: axis {axis!r} is out of range for a rank-{rank} tile")
    return axis % rank


def _infer_reduce(op: str) -> Callable[..., TileType]:
    def infer(a: TileType, *, axis: int | None, keepdims: bool) -> TileType:
        if axis is None:
            shape: Shape = (1,) * len(a.shape) if keepdims else ()
        else:
            ax = normalize_axis(op, axis, len(a.shape))
            shape = a.shape[:ax] + ((1,) if keepdims else ()) + a.shape[ax + 1 :]
        if op != "sum" and a.dtype == BOOL:
            raise TypeError(f"tile.{op} of a bool tile is not supported")
        dt = dtype_of("i64") if op == "sum" and a.dtype == BOOL else a.dtype
        return TileType(shape, dt)

    return infer


def _infer_broadcast_to(a: TileType, *, shape: Shape) -> TileType:
    try:
        result = tuple(np.broadcast_shapes(a.shape, shape))
    except ValueError:
        result = ()
    if result != shape:
        raise ShapeError(f"tile.broadcast_to: cannot broadcast a tile of shape {a.shape} to {shape}")
    return TileType(shape, a.dtype)


def _infer_reshape(a: TileType, *, shape: Shape) -> TileType:
    if math.prod(shape) != math.prod(a.shape):
        raise ShapeError(
            f"tile.reshape: new shape {shape} has {math.prod(shape)} elements, the tile {a.shape} has "
            f"{math.prod(a.shape)} (reshape must preserve the element count)"
        )
    return TileType(shape, a.dtype)


def _infer_transpose(a: TileType) -> TileType:
    if len(a.shape) != 2:
        raise ShapeError(f"tile.transpose needs a rank-2 tile, got shape {a.shape}")
    return TileType((a.shape[1], a.shape[0]), a.dtype)


def _infer_integer_binary(op: str, *, allow_bool: bool) -> Callable[..., TileType]:
    def infer(a: TileType, b: TileType) -> TileType:
        dt = _same_dtype(op, a, b)
        if dt.is_float or (dt == BOOL and not allow_bool):
            kinds = "integer or bool" if allow_bool else "integer"
            raise TypeError(f"`{op}` needs {kinds} tiles, got {dt}")
        return TileType(broadcast_shapes(op, a.shape, b.shape), dt)

    return infer


def _infer_invert(a: TileType) -> TileType:
    if a.dtype.is_float:
        raise TypeError(f"`~` needs an integer or bool tile, got {a.dtype}")
    return a


SCAN_OPS: Final[tuple[str, ...]] = ("add", "max", "min")


def _infer_scan(a: TileType, *, axis: int, op: str) -> TileType:
    if op not in SCAN_OPS:
        raise TypeError(f"tile.scan: op must be one of {', '.join(SCAN_OPS)}, got {op!r}")
    if not a.shape:
        raise ShapeError("tile.scan needs a tile of rank >= 1")
    normalize_axis("scan", axis, len(a.shape))
    if a.dtype == BOOL:
        if op != "add":
            raise TypeError(f"tile.scan(op={op!r}) of a bool tile is not supported")
        return TileType(a.shape, dtype_of("i64"))
    return a


def _infer_argreduce(op: str) -> Callable[..., TileType]:
    def infer(a: TileType, *, axis: int | None, keepdims: bool) -> TileType:
        if a.dtype == BOOL:
            raise TypeError(f"tile.{op} of a bool tile is not supported; use .astype(i32)")
        return TileType(_infer_reduce(op)(a, axis=axis, keepdims=keepdims).shape, dtype_of("i32"))

    return infer


def infer_indexed(
    op: str, rank: int, dtype: DType, index: Sequence[TileType], mask: TileType | None
) -> Shape:
    """Typing rule shared by `gather`, `scatter` and the atomics: one integer index tile (or scalar, as a
    rank-0 tile) per axis of the tensor, broadcast together with the mask; returns the element shape."""
    if len(index) != rank:
        raise ShapeError(
            f"tile.{op}: the tensor has rank {rank}, got {len(index)} index tile(s) (one per axis)"
        )
    for t in index:
        if t.dtype.is_float or t.dtype == BOOL:
            raise TypeError(f"tile.{op}: index tiles must have an integer dtype, got {t.dtype}")
    shapes = [t.shape for t in index]
    if mask is not None:
        if mask.dtype != BOOL:
            raise TypeError(f"tile.{op}: the mask must be a bool tile (a comparison), got {mask.dtype}")
        shapes.append(mask.shape)
    shape = broadcast_shapes(f"tile.{op}", *shapes)
    del dtype
    return shape


def infer_stored_values(op: str, shape: Shape, dtype: DType, value: TileType) -> Shape:
    """`scatter`/atomics: the values must have the tensor's dtype; they broadcast with the index tiles (and the
    mask) and the result is the shape of the lanes written."""
    if value.dtype != dtype:
        raise TypeError(
            f"tile.{op}: values have dtype {value.dtype}, the tensor is {dtype}; convert with .astype({dtype})"
        )
    return broadcast_shapes(f"tile.{op}", shape, value.shape)


ATOMIC_OPS: Final[dict[str, str]] = {"atomic_add": "add", "atomic_max": "max", "atomic_min": "min"}


def check_atomic_dtype(op: str, dtype: DType) -> None:
    """Atomics exist for 32/64-bit ints and f32/f64 (`atomic_add` also for f16 is left out: no CPU twin)."""
    if dtype.name not in ("i32", "i64", "u32", "u64", "f32", "f64"):
        raise TypeError(f"tile.{op} supports i32, i64, u32, u64, f32 and f64 tensors, got {dtype}")


_MMA_INPUTS: Final[frozenset[str]] = frozenset({"f16", "bf16", "f32", "f8e4m3", "f8e5m2"})

#: `tile.matmul(..., input_precision=...)`: "ieee" multiplies the inputs as they are (the default; f32 runs on
#: the GPU's FMA units), "tf32" rounds each input element to TF32 first (f32 runs on TF32 tensor cores).  The
#: names are Triton's `tl.dot(input_precision=...)`; unlike Triton's, the default is the exact one.
INPUT_PRECISIONS: Final[tuple[str, ...]] = ("ieee", "tf32")


def _infer_matmul(a: TileType, b: TileType, acc: TileType, *, input_precision: str = "ieee") -> TileType:
    if input_precision not in INPUT_PRECISIONS:
        raise TypeError(
            f"tile.matmul: input_precision must be one of {', '.join(map(repr, INPUT_PRECISIONS))}, "
            f"got {input_precision!r}"
        )
    if len(a.shape) != 2 or len(b.shape) != 2 or len(acc.shape) != 2:
        raise ShapeError(f"tile.matmul needs rank-2 tiles, got {a.shape} @ {b.shape} + {acc.shape}")
    (m, k), (k2, n) = a.shape, b.shape
    if k != k2:
        raise ShapeError(f"tile.matmul: inner dimensions do not match: {a.shape} @ {b.shape}")
    if acc.shape != (m, n):
        raise ShapeError(f"tile.matmul: accumulator shape {acc.shape} != result shape {(m, n)}")
    if a.dtype != b.dtype or a.dtype.name not in _MMA_INPUTS:
        raise TypeError(
            f"tile.matmul: inputs must both be f16, bf16 or f32 (or both f8e4m3 / f8e5m2), got {a.dtype} and "
            f"{b.dtype}"
        )
    if acc.dtype != F32:
        raise TypeError(f"tile.matmul accumulates in f32; the accumulator is {acc.dtype}")
    return acc


def _infer_create(*, shape: Shape, dtype: DType, value: Any = 0) -> TileType:
    return TileType(shape, dtype)


def _infer_iota(*, n: int, dtype: DType) -> TileType:
    return TileType((n,), dtype)


# -- CPU implementations -------------------------------------------------------------------------------------


def _truediv(a: Array, b: Array) -> Array:
    if np.issubdtype(a.dtype, np.integer):  # floor, then one step toward zero: exact at the dtype's minimum
        with np.errstate(all="ignore"):  # (`abs(MIN)` overflows); `MIN / -1` wraps to MIN like `div.s`
            divisor = np.where(b == 0, 1, b).astype(b.dtype, copy=False)
            quotient = np.floor_divide(a, divisor)
            inexact = np.remainder(a, divisor) != 0
            out: Array = np.where(inexact & ((a < 0) ^ (divisor < 0)), quotient + 1, quotient)
            return out.astype(quotient.dtype)
    return _wide(a) / _wide(b)


def _math(f: Callable[[Array], Array]) -> Callable[..., Array]:
    def impl(a: Array) -> Array:
        with np.errstate(all="ignore"):
            return f(_wide(a))

    return impl


def _reduce(f: Callable[..., Array]) -> Callable[..., Array]:
    def impl(a: Array, *, axis: int | None, keepdims: bool) -> Array:
        return f(_wide(a), axis=axis, keepdims=keepdims)

    return impl


def round_to_tf32(values: Array) -> Array:
    """f32 values rounded to TF32 (1 sign, 8 exponent, 10 stored mantissa bits), kept as f32: to nearest, ties
    away from zero, exactly as PTX `cvt.rna.tf32.f32` (the 13 low bits become 0; a carry may reach the exponent,
    up to inf past the largest TF32 value).  NaN stays NaN; f16, bf16 and fp8 values are TF32 values already."""
    x = np.ascontiguousarray(values, dtype=np.float32)
    bits = x.view(np.uint32)
    with np.errstate(over="ignore"):
        rounded = ((bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)
    return np.where(np.isnan(x), x, rounded)


def _matmul(a: Array, b: Array, acc: Array, *, input_precision: str = "ieee") -> Array:
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    if input_precision == "tf32":
        a32, b32 = round_to_tf32(a32), round_to_tf32(b32)
    return a32 @ b32 + acc.astype(np.float32)


def _cpu_astype(a: Array, *, dtype: DType) -> Array:
    if dtype.is_float or not np.issubdtype(a.dtype, np.floating) or dtype.name == "bool":
        return a
    # float -> int truncates toward zero and saturates to the dtype's range, NaN giving 0 (PTX `cvt.rzi`,
    # the GPU's `fptosi.sat`/`fptoui.sat`)
    # The bounds are compared as floats but written as integers: `float(2**63 - 1)` is 2**63, which numpy's
    # float -> int64 conversion turns into the minimum (so 3e38 -> i64 once gave INT64_MIN where the GPU gives MAX).
    info = np.iinfo(dtype.storage)
    with np.errstate(invalid="ignore"):
        wide = np.nan_to_num(np.trunc(a.astype(np.float64)), nan=0.0, posinf=np.inf, neginf=-np.inf)
    high, low = wide >= float(info.max), wide <= float(info.min)
    out = np.where(high | low, 0.0, wide).astype(dtype.storage)
    out[high] = info.max
    out[low] = info.min
    return out


def _subtract(a: Array, b: Array) -> Array:
    return np.logical_xor(a, b) if a.dtype == np.bool_ else np.subtract(a, b)


def _bin(f: Callable[[Array, Array], Array]) -> Callable[..., Array]:
    def impl(a: Array, b: Array) -> Array:
        return f(_wide(a), _wide(b))

    return impl


def _division_by_zero() -> KernelTrapError:
    return KernelTrapError("integer division or remainder by zero in a tile operation")


def _int_truediv(a: Array, b: Array) -> Array:
    if np.issubdtype(a.dtype, np.integer) and np.any(b == 0):
        raise _division_by_zero()
    return _truediv(a, b)


def _floordiv(a: Array, b: Array) -> Array:
    if np.any(b == 0):
        raise _division_by_zero()
    return np.floor_divide(a, b)


def _mod(a: Array, b: Array) -> Array:
    if np.any(b == 0):
        raise _division_by_zero()
    return np.mod(a, b)


def _shift(left: bool) -> Callable[..., Array]:
    def impl(a: Array, b: Array) -> Array:
        bits = a.dtype.itemsize * 8
        amount = b.astype(np.uint64, copy=False) if b.dtype.kind == "i" else b.astype(np.uint64)
        big = amount >= bits
        safe = np.where(big, 0, amount).astype(a.dtype)
        if left:
            return np.where(big, np.zeros_like(a), np.left_shift(a, safe))
        fill = np.where(a < 0, -1, 0).astype(a.dtype) if a.dtype.kind == "i" else np.zeros_like(a)
        return np.where(big, fill, np.right_shift(a, safe))

    return impl


def _invert(a: Array) -> Array:
    return np.logical_not(a) if a.dtype == np.bool_ else np.invert(a)


def _scan(a: Array, *, axis: int, op: str) -> Array:
    wide = _wide(a)
    if op == "add":
        return np.cumsum(wide, axis=axis)
    return (np.maximum if op == "max" else np.minimum).accumulate(wide, axis=axis)


def _argreduce(find: Callable[..., Array]) -> Callable[..., Array]:
    def impl(a: Array, *, axis: int | None, keepdims: bool) -> Array:
        return np.asarray(find(a, axis=axis, keepdims=keepdims))

    return impl


OPS: Final[dict[str, OpSpec]] = {}


def _op(name: str, kind: str, infer: Callable[..., TileType], cpu: Callable[..., Array], doc: str) -> None:
    OPS[name] = OpSpec(name, kind, infer, cpu, doc)


_op("add", "elementwise", _infer_binary("+"), _bin(np.add), "a + b")
_op("sub", "elementwise", _infer_binary("-"), _bin(_subtract), "a - b (bool: exclusive or)")
_op("mul", "elementwise", _infer_binary("*"), _bin(np.multiply), "a * b")
_op("truediv", "elementwise", _infer_binary("/"), _int_truediv, "a / b (integers: truncating)")
_op("floordiv", "elementwise", _infer_integer_binary("//", allow_bool=False), _floordiv, "a // b (floor)")
_op("mod", "elementwise", _infer_integer_binary("%", allow_bool=False), _mod, "a % b (divisor's sign)")
_op("bitand", "elementwise", _infer_integer_binary("&", allow_bool=True), np.bitwise_and, "a & b")
_op("bitor", "elementwise", _infer_integer_binary("|", allow_bool=True), np.bitwise_or, "a | b")
_op("bitxor", "elementwise", _infer_integer_binary("^", allow_bool=True), np.bitwise_xor, "a ^ b")
_op("lshift", "elementwise", _infer_integer_binary("<<", allow_bool=False), _shift(True), "a << b")
_op("rshift", "elementwise", _infer_integer_binary(">>", allow_bool=False), _shift(False), "a >> b")
_op("invert", "elementwise", _infer_invert, _invert, "~a (bool: logical not)")
_op("maximum", "elementwise", _infer_binary("maximum"), _bin(np.maximum), "elementwise max (NaN propagates)")
_op("minimum", "elementwise", _infer_binary("minimum"), _bin(np.minimum), "elementwise min (NaN propagates)")
_op("neg", "elementwise", _infer_neg, np.negative, "-a")
_op("lt", "compare", _infer_compare("<"), _bin(np.less), "a < b")
_op("le", "compare", _infer_compare("<="), _bin(np.less_equal), "a <= b")
_op("gt", "compare", _infer_compare(">"), _bin(np.greater), "a > b")
_op("ge", "compare", _infer_compare(">="), _bin(np.greater_equal), "a >= b")
_op("eq", "compare", _infer_compare("=="), _bin(np.equal), "a == b")
_op("ne", "compare", _infer_compare("!="), _bin(np.not_equal), "a != b")
_op("where", "select", _infer_where, lambda c, a, b: np.asarray(np.where(c, a, b)), "c ? a : b, elementwise")
_op("exp", "math", _infer_float_unary("exp"), _math(np.exp), "e ** x")
_op("exp2", "math", _infer_float_unary("exp2"), _math(np.exp2), "2 ** x")
_op("log", "math", _infer_float_unary("log"), _math(np.log), "natural logarithm")
_op("sqrt", "math", _infer_float_unary("sqrt"), _math(np.sqrt), "square root")
_op("rsqrt", "math", _infer_float_unary("rsqrt"), _math(lambda a: 1 / np.sqrt(a)), "1 / sqrt(x)")
_op("tanh", "math", _infer_float_unary("tanh"), _math(np.tanh), "hyperbolic tangent")
_op("sin", "math", _infer_float_unary("sin"), _math(np.sin), "sine")
_op("cos", "math", _infer_float_unary("cos"), _math(np.cos), "cosine")
_op("astype", "convert", _infer_astype, _cpu_astype, "convert the element type (floats to ints truncate)")
_op("sum", "reduce", _infer_reduce("sum"), _reduce(np.sum), "sum along an axis (drops it unless keepdims)")
_op("max", "reduce", _infer_reduce("max"), _reduce(np.max), "maximum along an axis")
_op("min", "reduce", _infer_reduce("min"), _reduce(np.min), "minimum along an axis")
_op("scan", "scan", _infer_scan, _scan, "inclusive prefix add/max/min along an axis (cumsum is op='add')")
_op("argmax", "argreduce", _infer_argreduce("argmax"), _argreduce(np.argmax), "first index of the maximum")
_op("argmin", "argreduce", _infer_argreduce("argmin"), _argreduce(np.argmin), "first index of the minimum")
_op(
    "broadcast_to",
    "shape",
    _infer_broadcast_to,
    lambda a, *, shape: np.broadcast_to(a, shape).copy(),
    "numpy rules",
)
_op("reshape", "shape", _infer_reshape, lambda a, *, shape: a.reshape(shape), "same elements, new shape")
_op("transpose", "shape", _infer_transpose, lambda a: np.ascontiguousarray(a.T), "swap the two axes")
_op(
    "matmul",
    "matmul",
    _infer_matmul,
    _matmul,
    "a @ b + acc, f32 accumulation (tensor cores on the GPU); input_precision='tf32' rounds the inputs to TF32",
)
_op(
    "zeros",
    "create",
    _infer_create,
    lambda *, shape, dtype: np.zeros(shape, compute_dtype(dtype)),
    "all zeros",
)
_op(
    "full",
    "create",
    _infer_create,
    lambda *, shape, dtype, value: np.full(
        shape, value, dtype=np.float64 if dtype.is_float else compute_dtype(dtype)
    ),
    "all `value`",
)
_op("iota", "create", _infer_iota, lambda *, n, dtype: np.arange(n), "0, 1, ..., n-1")

#: Python `ast` operator class name -> op name, for operators on tiles (codegen maps `BinOp`/`Compare`).
OPERATOR_OPS: Final[dict[str, str]] = {
    "Add": "add",
    "Sub": "sub",
    "Mult": "mul",
    "Div": "truediv",
    "FloorDiv": "floordiv",
    "Mod": "mod",
    "BitAnd": "bitand",
    "BitOr": "bitor",
    "BitXor": "bitxor",
    "LShift": "lshift",
    "RShift": "rshift",
    "USub": "neg",
    "Invert": "invert",
    "Lt": "lt",
    "LtE": "le",
    "Gt": "gt",
    "GtE": "ge",
    "Eq": "eq",
    "NotEq": "ne",
}

# -- memory and grid ops (their CPU side needs the block's context; the executor calls these) ----------------

#: Kernel-side calls that touch memory or the grid rather than tile values (codegen lowers these specially).
MEMORY_OPS: Final[dict[str, str]] = {
    "load_like": "tile.load_like(x, z): x's tile at z's tile-block position, shaped like z's tile (padded)",
    "load": "x.load(index, shape) / part.load(index) / z.load(): a tile by tile index (padded past the edge)",
    "partition": "x.partition(shape) inside a kernel: a read-only tiled view of an input",
    "store": "z.store(t): write the block's own tile (masked past the edge)",
    "gather": "tile.gather(x, index, mask=None, other=0): x's elements at per-axis index tiles; an index "
    "outside x or a masked-off lane reads `other`",
    "scatter": "tile.scatter(z, index, values, mask=None): write values at per-axis element indices of the "
    "output; only indices inside the block's own tile are written (others and masked-off lanes are dropped)",
    "atomic_add": "tile.atomic_add(acc, index, values, mask=None): acc[index] += values, atomically across "
    "tile blocks (AtomicTensor parameters only; indices outside acc and masked-off lanes are dropped)",
    "atomic_max": "tile.atomic_max(acc, index, values, mask=None): acc[index] = max(acc[index], values)",
    "atomic_min": "tile.atomic_min(acc, index, values, mask=None): acc[index] = min(acc[index], values)",
}
GRID_OPS: Final[dict[str, str]] = {
    "bid": "tile.bid(axis): this tile block's index along grid axis `axis` (0 = first/row axis)",
    "num_blocks": "tile.num_blocks(axis): the grid's extent along `axis`",
}


def load_padded(source: Array, origin: Sequence[int], shape: Shape, dt: DType) -> Array:
    """The `shape`-sized window of `source` (storage) starting at element `origin`; zeros past its edge."""
    out = np.zeros(shape, dtype=compute_dtype(dt))
    src = tuple(slice(o, min(o + s, n)) for o, s, n in zip(origin, shape, source.shape, strict=True))
    dst = tuple(slice(0, max(0, sl.stop - sl.start)) for sl in src)
    if all(sl.stop > sl.start for sl in src):
        out[dst] = from_storage(source[src], dt)
    return out


def store_masked(dest: Array, origin: Sequence[int], tile: Array, dt: DType) -> None:
    """Write `tile` (compute form) into `dest` (storage) at `origin`; drop what lies past the edge."""
    dst = tuple(slice(o, min(o + s, n)) for o, s, n in zip(origin, tile.shape, dest.shape, strict=True))
    if all(sl.stop > sl.start for sl in dst):
        src = tuple(slice(0, sl.stop - sl.start) for sl in dst)
        dest[dst] = to_storage(tile[src], dt)


def apply_values(
    name: str, operand_types: Sequence[TileType], arrays: Sequence[Array], **attrs: Any
) -> tuple[TileType, Array]:
    """Type-check and run op `name`: the result type and its array (rounded to the result dtype)."""
    spec = OPS[name]
    result_type = spec.infer(*operand_types, **attrs)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        raw = spec.cpu(*arrays, **attrs)
    return result_type, finish(np.broadcast_to(raw, result_type.shape), result_type.dtype)


def _flat_targets(
    shape: Shape, index: Sequence[Array], mask: Array | None, out_shape: Shape, keep: Array | None = None
) -> tuple[Array, Array]:
    """Flat element offsets into a tensor of `shape` for per-axis `index` arrays, and which lanes are live
    (inside the tensor, mask true, and inside `keep` when given)."""
    idx = [np.broadcast_to(np.asarray(i, dtype=np.int64), out_shape) for i in index]
    live = np.ones(out_shape, dtype=bool)
    for i, n in zip(idx, shape, strict=True):
        live &= (i >= 0) & (i < n)
    if mask is not None:
        live &= np.broadcast_to(mask, out_shape)
    if keep is not None:
        live &= keep
    flat = np.zeros(out_shape, dtype=np.int64)
    for i, n in zip(idx, shape, strict=True):
        flat = flat * n + np.where(live, i, 0)
    return flat, live


def gather_values(
    source: Array, index: Sequence[Array], mask: Array | None, other: Any, shape: Shape, dt: DType
) -> Array:
    """`tile.gather` on the CPU: `source` (storage) read at the index tiles; dead lanes read `other`."""
    flat, live = _flat_targets(tuple(source.shape), index, mask, shape)
    values = from_storage(source.reshape(-1)[flat], dt) if source.size else np.zeros(shape, compute_dtype(dt))
    fill = finish(np.asarray(other), dt)
    return finish(np.where(live, values, fill), dt)


def scatter_values(
    dest: Array,
    index: Sequence[Array],
    values: Array,
    mask: Array | None,
    shape: Shape,
    dt: DType,
    own: tuple[Sequence[int], Sequence[int]] | None,
) -> None:
    """`tile.scatter` on the CPU: lanes inside the tensor, the mask and the block's own tile `own` = (lo, hi)
    are written in row-major lane order (with repeated indices the last lane wins here; the GPU leaves that
    order unspecified)."""
    keep = None
    if own is not None:
        lo, hi = own
        keep = np.ones(shape, dtype=bool)
        for i, a, z in zip(index, lo, hi, strict=True):
            ii = np.broadcast_to(np.asarray(i, dtype=np.int64), shape)
            keep &= (ii >= a) & (ii < z)
    flat, live = _flat_targets(tuple(dest.shape), index, mask, shape, keep)
    vals = to_storage(np.broadcast_to(values, shape), dt)
    dest.reshape(-1)[flat[live]] = vals[live]


def atomic_values(
    dest: Array, op: str, index: Sequence[Array], values: Array, mask: Array | None, shape: Shape, dt: DType
) -> None:
    """`tile.atomic_add/max/min` on the CPU: every live lane combines into `dest` (repeats accumulate)."""
    flat, live = _flat_targets(tuple(dest.shape), index, mask, shape)
    vals = np.broadcast_to(values, shape)[live].astype(dest.dtype)
    ufunc = {"add": np.add, "max": np.maximum, "min": np.minimum}[op]
    with np.errstate(over="ignore", invalid="ignore"):
        ufunc.at(dest.reshape(-1), flat[live], vals)
