"""How each kernel type is represented in LLVM IR.

scalar       iN / half / bfloat / float / double   (bool values are i1, stored as i8)
weak literal i64 / double                          (Python int / float until a typed operand decides)
Slice[T]     { ptr addrspace(1), i64 }             (kernel ABI: two parameters, pointer then length)
shared array ptr addrspace(3)                      (address of the block's array)
ThreadIndex  { i1 valid, i64 index }               (valid is constant true for index_1d)
ElemMut[T]   { i1 valid, ptr addrspace(1) }
"""

from __future__ import annotations

from llvmlite import ir

from safekernels.codegen.ir.types import (
    ElemMutTy,
    IndexTy,
    NoneTy,
    ScalarTy,
    SharedArrayTy,
    SliceTy,
    Ty,
    WeakTy,
)
from safekernels.dtypes import DType

GLOBAL_PTR = ir.PointerType(addrspace=1)
SHARED_PTR = ir.PointerType(addrspace=3)
I1 = ir.IntType(1)
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
F32 = ir.FloatType()
F64 = ir.DoubleType()
SLICE = ir.LiteralStructType([GLOBAL_PTR, I64])
INDEX = ir.LiteralStructType([I1, I64])
ELEM = ir.LiteralStructType([I1, GLOBAL_PTR])


def storage_type(dt: DType) -> ir.Type:
    """The in-memory LLVM type of an element."""
    if dt.kind == "f":
        return {16: ir.HalfType(), 32: F32, 64: F64}[dt.bits] if dt.name != "bf16" else ir.BFloatType()
    return ir.IntType(dt.bits)


def value_type(ty: Ty) -> ir.Type:
    if isinstance(ty, ScalarTy):
        if ty.is_bool:
            return I1
        return storage_type(ty.dtype)
    if isinstance(ty, WeakTy):
        return I64 if ty.kind == "int" else F64
    if isinstance(ty, SliceTy):
        return SLICE
    if isinstance(ty, SharedArrayTy):
        return SHARED_PTR
    if isinstance(ty, IndexTy):
        return INDEX
    if isinstance(ty, ElemMutTy):
        return ELEM
    if isinstance(ty, NoneTy):
        return ir.VoidType()
    raise TypeError(f"no LLVM type for {ty!r}")
