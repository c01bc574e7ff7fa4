"""How each kernel type is represented in LLVM IR.

scalar       iN / half / float / double            (bool values are i1, stored as i8; bf16 is stored as its
                                                   16 bits, i16: not every llvmlite has a bfloat type)
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
    """The in-memory LLVM type of an element (bf16: its bit pattern as i16)."""
    if dt.kind == "f":
        return {16: ir.HalfType(), 32: F32, 64: F64}[dt.bits] if dt.name != "bf16" else ir.IntType(16)
    return ir.IntType(dt.bits)


def widen_narrow_float(b: ir.IRBuilder, raw: ir.Value, dt: DType, to: ir.Type) -> ir.Value:
    """A loaded f16/bf16 element (or scalar parameter) as the arithmetic float `to`: bf16's bits are the high
    half of an f32, so widening is exact."""
    if dt.name == "bf16":
        wide = b.bitcast(b.shl(b.zext(raw, I32), ir.Constant(I32, 16)), F32)
        return wide if to == F32 else b.fpext(wide, to)
    return b.fpext(raw, to)


def round_to_narrow_float(b: ir.IRBuilder, v: ir.Value, dt: DType) -> ir.Value:
    """An f32/f64 value rounded to nearest even into f16 / the bits of a bf16 (`cvt.rn.bf16.f32`, sm_80+)."""
    if dt.name == "bf16":
        if v.type != F32:
            v = b.fptrunc(v, F32)
        asm = ir.InlineAsm(ir.FunctionType(ir.IntType(16), [F32]), "cvt.rn.bf16.f32 $0, $1;", "=h,f")
        return b.call(asm, [v])
    return b.fptrunc(v, ir.HalfType())


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
