"""Types of kernel values.

Scalars are the arithmetic dtypes (f16/bf16 are storage-only: loading them yields f32, the arithmetic type).
Literals and module constants are *weak* (`WeakTy`): they adopt the type of the other operand, so `x * 2.0`
stays
f32 when `x` is f32 (no silent f64 promotion).  Compound values (slices, witnesses, element handles, shared
arrays) are first-class in the IR so the front end can type-check their methods and lowering can pick their
LLVM representation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from safekernels.dtypes import DType, dtype_of


class Ty:
    """Base of every kernel type."""

    def describe(self) -> str:
        return type(self).__name__


@dataclass(frozen=True)
class ScalarTy(Ty):
    dtype: DType

    @property
    def is_float(self) -> bool:
        return self.dtype.kind == "f"

    @property
    def is_int(self) -> bool:
        return self.dtype.kind in ("i", "u")

    @property
    def is_bool(self) -> bool:
        return self.dtype.kind == "b"

    @property
    def is_signed(self) -> bool:
        return self.dtype.kind in ("i", "f")

    @property
    def bits(self) -> int:
        return 1 if self.is_bool else self.dtype.bits

    def describe(self) -> str:
        return self.dtype.name


@dataclass(frozen=True)
class WeakTy(Ty):
    """An untyped literal or module constant: `kind` is "int" or "float"."""

    kind: str

    def describe(self) -> str:
        return f"literal {self.kind}"


@dataclass(frozen=True)
class SliceTy(Ty):
    """A kernel buffer parameter; `mode` is "slice" (read-only), "disjoint" or "atomic"."""

    mode: str
    elem: DType

    def describe(self) -> str:
        name = {"slice": "Slice", "disjoint": "DisjointSlice", "atomic": "AtomicSlice"}[self.mode]
        return f"{name}[{self.elem.name}]"


@dataclass(frozen=True)
class SharedArrayTy(Ty):
    elem: DType
    length: int
    symbol: str  # the addrspace(3) global backing it

    def describe(self) -> str:
        return f"shared_array[{self.elem.name}, {self.length}]"


@dataclass(frozen=True)
class IndexTy(Ty):
    """A `ThreadIndex` witness; `optional` when it came from `index_2d` (None when the column is out of
    range)."""

    optional: bool

    def describe(self) -> str:
        return "Optional[ThreadIndex]" if self.optional else "ThreadIndex"


@dataclass(frozen=True)
class ElemMutTy(Ty):
    """An exclusive element handle; `optional` for `get_mut`'s result."""

    elem: DType
    optional: bool

    def describe(self) -> str:
        inner = f"ElemMut[{self.elem.name}]"
        return f"Optional[{inner}]" if self.optional else inner


@dataclass(frozen=True)
class NoneTy(Ty):
    def describe(self) -> str:
        return "None"


I64: Final = ScalarTy(dtype_of("i64"))
I32: Final = ScalarTy(dtype_of("i32"))
U32: Final = ScalarTy(dtype_of("u32"))
F32: Final = ScalarTy(dtype_of("f32"))
F64: Final = ScalarTy(dtype_of("f64"))
BOOL: Final = ScalarTy(dtype_of("bool"))
WEAK_INT: Final = WeakTy("int")
WEAK_FLOAT: Final = WeakTy("float")
NONE: Final = NoneTy()


def arith_type(dtype: DType) -> ScalarTy:
    """The type a stored element has once loaded: f16/bf16 widen to f32."""
    if dtype.name in ("f16", "bf16"):
        return F32
    return ScalarTy(dtype)


def concrete(ty: Ty) -> Ty:
    """A weak type's default materialization (Python int -> i64, Python float -> f64)."""
    if isinstance(ty, WeakTy):
        return I64 if ty.kind == "int" else F64
    return ty


def is_numeric(ty: Ty) -> bool:
    return isinstance(ty, WeakTy) or (isinstance(ty, ScalarTy) and not ty.is_bool)


def is_intlike(ty: Ty) -> bool:
    return (isinstance(ty, WeakTy) and ty.kind == "int") or (isinstance(ty, ScalarTy) and ty.is_int)


def is_floatlike(ty: Ty) -> bool:
    return (isinstance(ty, WeakTy) and ty.kind == "float") or (isinstance(ty, ScalarTy) and ty.is_float)
