"""Element types of kernels and buffers: `f16 bf16 f8e4m3 f8e5m2 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64 bool_`.

Each dtype is a *class*, so it works in three roles with one name:
- as a type argument, `Slice[f32]`, `DeviceBuffer[f16]`, which mypy understands without the plugin;
- as a cast inside kernels and on the host, `f32(x)`, which returns the matching numpy scalar (the CPU executor
  relies on numpy's fixed-width arithmetic to give the GPU's results);
- as a runtime descriptor through `dtype_of(...)` / `DType`, which codegen and the runtime use for sizes, names
  and numpy dtypes.

`bf16` has no numpy dtype; buffers store it as raw 16-bit patterns (`numpy.uint16`) and host conversions go
through `bf16_to_f32` / `f32_to_bf16` (round to nearest even), the same rounding as the GPU's `cvt.rn.bf16.f32`.

The 8-bit floats `f8e4m3` (the OCP "E4M3FN": no infinities, NaN = 0x7F, largest 448) and `f8e5m2` (IEEE-like,
largest finite 57344) are storage types for tensor-core matmuls.  Buffers hold their bit patterns
(`numpy.uint8`); `f8_to_f32` widens exactly and `f32_to_f8` rounds to nearest even and *saturates* to the
largest finite value (infinities included, NaN stays NaN), the GPU's `cvt.rn.satfinite.e4m3x2.f32`.
`to_f32` / `from_f32` dispatch over every such bit-pattern dtype (`is_encoded`).
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class DType:
    """Runtime description of an element type."""

    name: str
    kind: str  # "f" float, "i" signed int, "u" unsigned int, "b" bool
    bits: int
    storage: np.dtype[Any]  # how host arrays hold it (bf16 -> uint16 bit patterns)

    @property
    def itemsize(self) -> int:
        return self.storage.itemsize

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def is_signed(self) -> bool:
        return self.kind in ("f", "i")

    def __str__(self) -> str:
        return self.name


class ScalarType:
    """Mixin of every dtype class; `__dtype__` holds its `DType`."""

    __dtype__: ClassVar[DType]


def _make(cls: type, name: str, kind: str, bits: int, storage: Any) -> None:
    dt = DType(name, kind, bits, np.dtype(storage))
    cls.__dtype__ = dt  # type: ignore[attr-defined]
    _BY_NAME[name] = cls
    if name not in ENCODED:
        _BY_NUMPY.setdefault(np.dtype(storage), cls)


#: dtypes with no numpy type of their own: host arrays hold their bit patterns (`storage`)
ENCODED: Final[frozenset[str]] = frozenset({"bf16", "f8e4m3", "f8e5m2"})
_BY_NAME: dict[str, type] = {}
_BY_NUMPY: dict[np.dtype[Any], type] = {}


if TYPE_CHECKING:
    from typing import Self

    class _TypedInt(int):
        """What a type checker sees of an int dtype: arithmetic with a Python int (or the same dtype) keeps the
        dtype, as the kernel compilers type it (`acc: i32 = i32(0); acc += 3`)."""

        def __add__(self, other: int, /) -> Self: ...
        def __radd__(self, other: int, /) -> Self: ...
        def __sub__(self, other: int, /) -> Self: ...
        def __rsub__(self, other: int, /) -> Self: ...
        def __mul__(self, other: int, /) -> Self: ...
        def __rmul__(self, other: int, /) -> Self: ...
        def __floordiv__(self, other: int, /) -> Self: ...
        def __rfloordiv__(self, other: int, /) -> Self: ...
        def __mod__(self, other: int, /) -> Self: ...
        def __rmod__(self, other: int, /) -> Self: ...
        def __and__(self, other: int, /) -> Self: ...
        def __rand__(self, other: int, /) -> Self: ...
        def __or__(self, other: int, /) -> Self: ...
        def __ror__(self, other: int, /) -> Self: ...
        def __xor__(self, other: int, /) -> Self: ...
        def __rxor__(self, other: int, /) -> Self: ...
        def __lshift__(self, other: int, /) -> Self: ...
        def __rshift__(self, other: int, /) -> Self: ...
        def __neg__(self) -> Self: ...
        def __pos__(self) -> Self: ...
        def __abs__(self) -> Self: ...
        def __invert__(self) -> Self: ...

    class _TypedFloat(float):
        """What a type checker sees of a float dtype: arithmetic with a Python number (or the same dtype) keeps
        the dtype, as the kernel compilers type it (`acc: f32 = f32(0.0); acc += x * 2.0`)."""

        def __add__(self, other: float, /) -> Self: ...
        def __radd__(self, other: float, /) -> Self: ...
        def __sub__(self, other: float, /) -> Self: ...
        def __rsub__(self, other: float, /) -> Self: ...
        def __mul__(self, other: float, /) -> Self: ...
        def __rmul__(self, other: float, /) -> Self: ...
        def __truediv__(self, other: float, /) -> Self: ...
        def __rtruediv__(self, other: float, /) -> Self: ...
        def __floordiv__(self, other: float, /) -> Self: ...
        def __rfloordiv__(self, other: float, /) -> Self: ...
        def __mod__(self, other: float, /) -> Self: ...
        def __rmod__(self, other: float, /) -> Self: ...
        def __neg__(self) -> Self: ...
        def __pos__(self) -> Self: ...
        def __abs__(self) -> Self: ...

else:  # at run time the dtypes are plain subclasses (their constructors return numpy scalars)
    _TypedInt = int
    _TypedFloat = float


class f16(_TypedFloat, ScalarType):
    def __new__(cls, value: Any = 0.0) -> Any:
        return np.float16(value)


class bf16(_TypedFloat, ScalarType):
    def __new__(cls, value: Any = 0.0) -> Any:
        # bf16 arithmetic happens in f32 (docs/reference.md §6); the cast rounds the value to bf16 precision.
        return np.float32(bf16_to_f32(f32_to_bf16(np.asarray(value, dtype=np.float32))))


class f8e4m3(_TypedFloat, ScalarType):
    def __new__(cls, value: Any = 0.0) -> Any:
        return np.float32(f8_to_f32(f32_to_f8(np.asarray(value, dtype=np.float32), "f8e4m3"), "f8e4m3"))


class f8e5m2(_TypedFloat, ScalarType):
    def __new__(cls, value: Any = 0.0) -> Any:
        return np.float32(f8_to_f32(f32_to_f8(np.asarray(value, dtype=np.float32), "f8e5m2"), "f8e5m2"))


class f32(_TypedFloat, ScalarType):
    def __new__(cls, value: Any = 0.0) -> Any:
        return np.float32(value)


class f64(_TypedFloat, ScalarType):
    def __new__(cls, value: Any = 0.0) -> Any:
        return np.float64(value)


def _wrap_int(np_type: type[np.integer[Any]], value: Any) -> Any:
    """Integer cast: floats truncate toward zero and saturate to the range, NaN giving 0 (the GPU's `cvt.rzi`);
    out-of-range ints wrap (as the GPU's `trunc`)."""
    info = np.iinfo(np_type)
    if isinstance(value, float | np.floating):
        if value != value:  # NaN (int() would raise)
            return np_type(0)
        value = info.min if value <= info.min else info.max if value >= info.max else int(value)
    as_int = int(value) & ((1 << info.bits) - 1)
    if info.min < 0 and as_int > info.max:
        as_int -= 1 << info.bits
    return np_type(as_int)


class i8(_TypedInt, ScalarType):
    def __new__(cls, value: Any = 0) -> Any:
        return _wrap_int(np.int8, value)


class i16(_TypedInt, ScalarType):
    def __new__(cls, value: Any = 0) -> Any:
        return _wrap_int(np.int16, value)


class i32(_TypedInt, ScalarType):
    def __new__(cls, value: Any = 0) -> Any:
        return _wrap_int(np.int32, value)


class i64(_TypedInt, ScalarType):
    def __new__(cls, value: Any = 0) -> Any:
        return _wrap_int(np.int64, value)


class u8(_TypedInt, ScalarType):
    def __new__(cls, value: Any = 0) -> Any:
        return _wrap_int(np.uint8, value)


class u16(_TypedInt, ScalarType):
    def __new__(cls, value: Any = 0) -> Any:
        return _wrap_int(np.uint16, value)


class u32(_TypedInt, ScalarType):
    def __new__(cls, value: Any = 0) -> Any:
        return _wrap_int(np.uint32, value)


class u64(_TypedInt, ScalarType):
    def __new__(cls, value: Any = 0) -> Any:
        return _wrap_int(np.uint64, value)


class bool_(int, ScalarType):
    def __new__(cls, value: Any = False) -> Any:
        return np.bool_(value)


for _cls, _name, _kind, _bits, _storage in (
    (f16, "f16", "f", 16, np.float16),
    (bf16, "bf16", "f", 16, np.uint16),
    (f8e4m3, "f8e4m3", "f", 8, np.uint8),
    (f8e5m2, "f8e5m2", "f", 8, np.uint8),
    (f32, "f32", "f", 32, np.float32),
    (f64, "f64", "f", 64, np.float64),
    (i8, "i8", "i", 8, np.int8),
    (i16, "i16", "i", 16, np.int16),
    (i32, "i32", "i", 32, np.int32),
    (i64, "i64", "i", 64, np.int64),
    (u8, "u8", "u", 8, np.uint8),
    (u16, "u16", "u", 16, np.uint16),
    (u32, "u32", "u", 32, np.uint32),
    (u64, "u64", "u", 64, np.uint64),
    (bool_, "bool", "b", 8, np.bool_),
):
    _make(_cls, _name, _kind, _bits, _storage)

ALL_DTYPES: Final[tuple[type, ...]] = tuple(_BY_NAME.values())


def dtype_of(obj: Any) -> DType:
    """The `DType` of a dtype class (`f32`), its name (`"f32"`), a numpy dtype, or Python's `bool`/`int`/`float`."""
    if isinstance(obj, DType):
        return obj
    if isinstance(obj, type) and issubclass(obj, ScalarType):
        return obj.__dtype__
    if obj is builtins.bool:
        return bool_.__dtype__
    if obj is builtins.int:
        return i64.__dtype__
    if obj is builtins.float:
        return f64.__dtype__
    if isinstance(obj, str) and obj in _BY_NAME:
        found: DType = getattr(dtype_class(obj), "__dtype__")  # noqa: B009 - classes built by _make
        return found
    if obj is None:  # numpy reads `np.dtype(None)` as float64: a missing dtype must not become f64 silently
        raise TypeError(f"a dtype is required (one of {', '.join(_BY_NAME)}), got None")
    try:
        np_dtype = np.dtype(obj)
    except TypeError:
        raise TypeError(f"not a safekernels dtype: {obj!r}") from None
    if np_dtype in _BY_NUMPY:
        return _BY_NUMPY[np_dtype].__dtype__  # type: ignore[attr-defined,no-any-return]
    raise TypeError(f"unsupported element type {np_dtype} (supported: {', '.join(_BY_NAME)})")


def dtype_class(name: str) -> type:
    """The dtype class for a name such as `"f32"` (raises KeyError naming the supported ones)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown dtype {name!r} (supported: {', '.join(_BY_NAME)})") from None


def f32_to_bf16(values: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Round f32 values to bf16 bit patterns, nearest-even (NaN stays NaN)."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounding = ((bits >> 16) & 1) + 0x7FFF
    rounded = ((bits + rounding) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(values, dtype=np.float32))
    return np.where(nan, np.uint16(0x7FC0), rounded).astype(np.uint16)


def bf16_to_f32(bits: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """Widen bf16 bit patterns to f32 exactly."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def _f8_values(name: str) -> npt.NDArray[np.float64]:
    """The value of each of the 256 bit patterns of an 8-bit float (NaN where the pattern is NaN)."""
    exp_bits, man_bits, bias = (4, 3, 7) if name == "f8e4m3" else (5, 2, 15)
    codes = np.arange(256, dtype=np.int64)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    exp = (codes >> man_bits) & ((1 << exp_bits) - 1)
    man = codes & ((1 << man_bits) - 1)
    scale = float(1 << man_bits)
    normal = (1.0 + man / scale) * np.exp2(exp.astype(np.float64) - bias)
    sub = (man / scale) * 2.0 ** (1 - bias)
    vals = sign * np.where(exp == 0, sub, normal)
    if name == "f8e4m3":
        vals[(codes & 0x7F) == 0x7F] = np.nan
    else:
        top = exp == (1 << exp_bits) - 1
        vals[top & (man == 0)] = sign[top & (man == 0)] * np.inf
        vals[top & (man != 0)] = np.nan
    return vals


_F8_TABLES: dict[str, npt.NDArray[np.float64]] = {n: _f8_values(n) for n in ("f8e4m3", "f8e5m2")}
_F8_MAX_CODE: Final[dict[str, int]] = {"f8e4m3": 0x7E, "f8e5m2": 0x7B}  # largest finite positive pattern


def _f8_name(name: str) -> str:
    if name not in _F8_TABLES:
        raise ValueError(f"not an 8-bit float dtype: {name!r} (f8e4m3 or f8e5m2)")
    return name


def f8_to_f32(bits: npt.ArrayLike, name: str) -> npt.NDArray[np.float32]:
    """Widen `f8e4m3` / `f8e5m2` bit patterns to f32 exactly."""
    table = _F8_TABLES[_f8_name(name)].astype(np.float32)
    return table[np.asarray(bits, dtype=np.uint8)]


def f32_to_f8(values: npt.ArrayLike, name: str) -> npt.NDArray[np.uint8]:
    """Round f32 values to `f8e4m3` / `f8e5m2` bit patterns: nearest even, saturating to the largest finite
    value (as `cvt.rn.satfinite`); NaN stays NaN."""
    top = _F8_MAX_CODE[_f8_name(name)]
    pos = _F8_TABLES[name][: top + 1]  # non-negative finite values, increasing with the pattern
    x = np.asarray(values, dtype=np.float32).astype(np.float64)
    mag = np.minimum(np.abs(np.nan_to_num(x, nan=0.0, posinf=np.inf, neginf=-np.inf)), pos[-1])
    hi = np.clip(np.searchsorted(pos, mag, side="left"), 0, top)
    lo = np.maximum(hi - 1, 0)
    d_lo, d_hi = mag - pos[lo], pos[hi] - mag
    pick = np.where(d_lo < d_hi, lo, np.where(d_hi < d_lo, hi, np.where(lo % 2 == 0, lo, hi)))
    code = (pick | np.where(np.signbit(x), 0x80, 0)).astype(np.uint8)
    return np.where(np.isnan(x), np.uint8(0x7F), code).astype(np.uint8)


def is_encoded(dt: DType) -> bool:
    """Whether host arrays of `dt` hold bit patterns rather than numpy values (bf16, the 8-bit floats)."""
    return dt.name in ENCODED


def to_f32(bits: npt.ArrayLike, dt: DType) -> npt.NDArray[np.float32]:
    """Bit patterns of an encoded dtype (`is_encoded`) -> f32 values, exactly."""
    return bf16_to_f32(bits) if dt.name == "bf16" else f8_to_f32(bits, dt.name)


def from_f32(values: npt.ArrayLike, dt: DType) -> npt.NDArray[Any]:
    """f32 values -> bit patterns of an encoded dtype (`is_encoded`), rounded to nearest even."""
    return f32_to_bf16(values) if dt.name == "bf16" else f32_to_f8(values, dt.name)


__all__ = [
    "ALL_DTYPES",
    "ENCODED",
    "DType",
    "ScalarType",
    "bf16",
    "bf16_to_f32",
    "bool_",
    "dtype_class",
    "dtype_of",
    "f8_to_f32",
    "f8e4m3",
    "f8e5m2",
    "f16",
    "f32",
    "f32_to_bf16",
    "f32_to_f8",
    "f64",
    "from_f32",
    "i8",
    "i16",
    "i32",
    "i64",
    "is_encoded",
    "to_f32",
    "u8",
    "u16",
    "u32",
    "u64",
]
