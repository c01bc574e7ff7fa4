"""Per-element arithmetic of the tile lowering: one LLVM instruction sequence per op and element.

Numeric rules are the op table's (`safekernels.tile.ops`): f16/bf16 compute in f32 and round once per op,
integer `/` truncates, integer `//` and `%` floor (Python), a zero divisor traps and `MIN // -1` wraps (no
LLVM poison: the divisor is made safe before `sdiv`), shifts by at least the bit width give 0 or the sign fill,
comparisons are ordered (NaN compares false, `!=` true), `maximum`/`minimum` propagate NaN (`max.NaN.f32`),
math goes through libdevice (`__nv_expf`, ...).
"""

from __future__ import annotations

from llvmlite import ir

from safekernels.dtypes import DType, dtype_of

F32 = ir.FloatType()
F64 = ir.DoubleType()
F16 = ir.HalfType()
BF16 = ir.IntType(16)  # llvmlite has no bfloat type: bf16 lives in registers as its 16 bits
I1 = ir.IntType(1)
I8 = ir.IntType(8)
I16 = ir.IntType(16)
I32 = ir.IntType(32)
I64 = ir.IntType(64)

_CMP = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
_LIBM = {
    "exp": "exp",
    "exp2": "exp2",
    "log": "log",
    "sqrt": "sqrt",
    "rsqrt": "rsqrt",
    "tanh": "tanh",
    "sin": "sin",
    "cos": "cos",
}


F8_PTX = {"f8e4m3": "e4m3", "f8e5m2": "e5m2"}  # 8-bit floats live in registers as their 8 bits


def llty(dt: DType) -> ir.Type:
    if dt.name == "bool":
        return I1
    if dt.name in F8_PTX:
        return I8
    if dt.kind == "f":
        return {16: F16 if dt.name == "f16" else BF16, 32: F32, 64: F64}[dt.bits]
    return ir.IntType(dt.bits)


def storage_ty(dt: DType) -> ir.Type:
    return I8 if dt.name == "bool" else llty(dt)


def is_half(dt: DType) -> bool:
    return dt.name in ("f16", "bf16")


def declare(module: ir.Module, name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
    existing = module.globals.get(name)
    if isinstance(existing, ir.Function):
        return existing
    return ir.Function(module, ir.FunctionType(ret, args), name)


def widen(b: ir.IRBuilder, v: ir.Value, dt: DType) -> ir.Value:
    if dt.name in F8_PTX:  # exact: fp8 -> f16x2 (sm_89+) -> f32
        text = (
            f"{{ .reg .b32 t; .reg .b16 lo, hi; cvt.rn.f16x2.{F8_PTX[dt.name]}x2 t, $1; "
            "mov.b32 {lo, hi}, t; cvt.f32.f16 $0, lo; }"
        )
        return b.call(ir.InlineAsm(ir.FunctionType(F32, [I16]), text, "=f,h"), [b.zext(v, I16)])
    if dt.name == "bf16":
        return b.bitcast(b.shl(b.zext(v, I32), ir.Constant(I32, 16)), F32)
    return b.fpext(v, F32) if dt.name == "f16" else v


def narrow(b: ir.IRBuilder, v: ir.Value, dt: DType) -> ir.Value:
    if dt.name in F8_PTX:  # round to nearest even, saturating to the largest finite value (as the CPU twin)
        if v.type != F32:
            v = b.fptrunc(v, F32) if v.type == F64 else b.fpext(v, F32)
        text = f"cvt.rn.satfinite.{F8_PTX[dt.name]}x2.f32 $0, $1, $1;"
        return b.trunc(b.call(ir.InlineAsm(ir.FunctionType(I16, [F32]), text, "=h,f"), [v]), I8)
    if dt.name == "bf16":
        if v.type != F32:
            v = b.fptrunc(v, F32) if v.type == F64 else b.fpext(v, F32)
        asm = ir.InlineAsm(ir.FunctionType(I16, [F32]), "cvt.rn.bf16.f32 $0, $1;", "=h,f")
        return b.call(asm, [v])
    if dt.name == "f16":
        return b.fptrunc(v, F16) if v.type != F16 else v
    return v


_ENCODED = ("bf16", *F8_PTX)  # floats with no LLVM type here: through f32


def convert(b: ir.IRBuilder, v: ir.Value, src: DType, dst: DType) -> ir.Value:
    """`astype`: floats -> ints truncate toward zero; to bool is `!= 0`."""
    if src == dst:
        return v
    to = llty(dst)
    if src.name in _ENCODED and dst.kind != "f":  # bf16/fp8 bits: through their f32 value
        return convert(b, widen(b, v, src), dtype_of("f32"), dst)
    if dst.name in _ENCODED and src.kind != "f":
        return narrow(b, convert(b, v, src, dtype_of("f32")), dst)
    if dst.name == "bool":
        if src.kind == "f":
            return b.fcmp_unordered("!=", v, ir.Constant(v.type, 0.0))
        return b.icmp_unsigned("!=", v, ir.Constant(v.type, 0))
    if src.name == "bool":
        return b.uitofp(v, to) if dst.kind == "f" else b.zext(v, to)
    if src.name in _ENCODED or dst.name in _ENCODED:
        if src.kind == "f" and dst.kind == "f":  # through f32 (bf16/fp8 -> f64 widens the f32 further)
            if src.name in _ENCODED:
                return convert(b, widen(b, v, src), dtype_of("f32"), dst)
            return narrow(b, v, dst)
        if src.name in _ENCODED:
            return convert(b, widen(b, v, src), dtype_of("f32"), dst)
        return narrow(b, convert(b, v, src, dtype_of("f32")), dst)
    if src.kind == "f" and dst.kind == "f":
        return b.fpext(v, to) if dst.bits > src.bits else b.fptrunc(v, to)
    if src.kind == "f":  # saturating (defined for every input; NaN gives 0), as the CPU executor's astype
        name = f"llvm.fpto{'s' if dst.kind == 'i' else 'u'}i.sat.i{dst.bits}.{_float_suffix(v.type)}"
        return b.call(declare(b.module, name, to, [v.type]), [v])
    if dst.kind == "f":
        return b.sitofp(v, to) if src.kind == "i" else b.uitofp(v, to)
    if dst.bits == src.bits:
        return v
    if dst.bits < src.bits:
        return b.trunc(v, to)
    return b.sext(v, to) if src.kind == "i" else b.zext(v, to)


def _float_suffix(t: ir.Type) -> str:
    return "f64" if t == F64 else "f16" if t == F16 else "f32"


def binary(b: ir.IRBuilder, op: str, x: ir.Value, y: ir.Value, dt: DType) -> ir.Value:
    """`x op y` for operands of dtype `dt` (result in `dt`, or i1 for comparisons)."""
    if dt.kind == "f":
        xw, yw = widen(b, x, dt), widen(b, y, dt)
        if op in _CMP:
            r = b.fcmp_unordered("!=", xw, yw) if op == "ne" else b.fcmp_ordered(_CMP[op], xw, yw)
            return r
        if op in ("maximum", "minimum"):
            fn = declare(
                b.module, f"llvm.{op}.{'f64' if xw.type == F64 else 'f32'}", xw.type, [xw.type, xw.type]
            )
            return narrow(b, b.call(fn, [xw, yw]), dt)
        r = {"add": b.fadd, "sub": b.fsub, "mul": b.fmul, "truediv": b.fdiv}[op](xw, yw)
        return narrow(b, r, dt)
    signed = dt.kind == "i"
    if op in _CMP:
        return b.icmp_signed(_CMP[op], x, y) if signed else b.icmp_unsigned(_CMP[op], x, y)
    if op in ("maximum", "minimum"):
        sym = ">" if op == "maximum" else "<"
        c = b.icmp_signed(sym, x, y) if signed else b.icmp_unsigned(sym, x, y)
        return b.select(c, x, y)
    if op == "truediv":
        trap_if(b, b.icmp_unsigned("==", y, ir.Constant(y.type, 0)))
        if not signed:
            return b.udiv(x, _safe_divisor(b, y, False))
        minus_one = b.icmp_signed("==", y, ir.Constant(y.type, -1))  # the safe divisor is 1 there: negate
        return b.select(minus_one, b.sub(ir.Constant(x.type, 0), x), b.sdiv(x, _safe_divisor(b, y, True)))
    if op in INTEGER_OPS:
        return integer_binary(b, op, x, y, signed)
    if dt.name == "bool":
        return {"add": b.or_, "mul": b.and_, "sub": b.xor}[op](x, y)
    return {"add": b.add, "sub": b.sub, "mul": b.mul}[op](x, y)


INTEGER_OPS = ("floordiv", "mod", "bitand", "bitor", "bitxor", "lshift", "rshift")


def trap_if(b: ir.IRBuilder, cond: ir.Value) -> None:
    """`trap` when `cond` (i1) holds: a predicated PTX `trap`, no control flow (usable inside formulas)."""
    if isinstance(cond, ir.Constant) and not cond.constant:
        return
    asm = ir.InlineAsm(
        ir.FunctionType(ir.VoidType(), [I32]),
        "{ .reg .pred %p; setp.ne.u32 %p, $0, 0; @%p trap; }",
        "r",
        side_effect=True,
    )
    b.call(asm, [b.zext(cond, I32)])


def _safe_divisor(b: ir.IRBuilder, y: ir.Value, signed: bool) -> ir.Value:
    """`y` with 0 (and, signed, -1) replaced by 1: `sdiv MIN, -1` and division by zero are poison in LLVM."""
    one = ir.Constant(y.type, 1)
    bad = b.icmp_unsigned("==", y, ir.Constant(y.type, 0))
    if signed:
        bad = b.or_(bad, b.icmp_signed("==", y, ir.Constant(y.type, -1)))
    return b.select(bad, one, y)


def integer_binary(b: ir.IRBuilder, op: str, x: ir.Value, y: ir.Value, signed: bool) -> ir.Value:
    """`// % & | ^ << >>` on integers (and `& | ^` on i1), with Python's floor rules for `//` and `%`."""
    ty = x.type
    zero = ir.Constant(ty, 0)
    if op == "bitand":
        return b.and_(x, y)
    if op == "bitor":
        return b.or_(x, y)
    if op == "bitxor":
        return b.xor(x, y)
    if op in ("lshift", "rshift"):
        bits = ir.Constant(ty, ty.width)
        big = b.icmp_unsigned(">=", y, bits)
        amount = b.select(big, zero, y)
        if op == "lshift":
            return b.select(big, zero, b.shl(x, amount))
        if signed:
            return b.select(big, b.ashr(x, ir.Constant(ty, ty.width - 1)), b.ashr(x, amount))
        return b.select(big, zero, b.lshr(x, amount))
    if not (isinstance(y, ir.Constant) and isinstance(y.constant, int) and y.constant != 0):
        trap_if(b, b.icmp_unsigned("==", y, zero))  # a literal non-zero divisor needs no check
    ys = _safe_divisor(b, y, signed)
    if not signed:
        return b.udiv(x, ys) if op == "floordiv" else b.urem(x, ys)
    q, r = b.sdiv(x, ys), b.srem(x, ys)
    fix = b.and_(
        b.icmp_signed("!=", r, zero),
        b.icmp_unsigned("!=", b.icmp_signed("<", r, zero), b.icmp_signed("<", ys, zero)),
    )
    minus_one = b.icmp_signed("==", y, ir.Constant(ty, -1))
    if op == "floordiv":
        return b.select(minus_one, b.sub(zero, x), b.sub(q, b.zext(fix, ty)))
    return b.select(minus_one, zero, b.select(fix, b.add(r, ys), r))


def unary(b: ir.IRBuilder, op: str, x: ir.Value, dt: DType) -> ir.Value:
    if op == "invert":
        return b.xor(x, ir.Constant(x.type, -1 if x.type.width > 1 else 1))
    if op == "neg":
        return narrow(b, b.fneg(widen(b, x, dt)), dt) if dt.kind == "f" else b.neg(x)
    xw = widen(b, x, dt)
    suffix = "f" if xw.type == F32 else ""
    fn = declare(b.module, f"__nv_{_LIBM[op]}{suffix}", xw.type, [xw.type])
    return narrow(b, b.call(fn, [xw]), dt)


def first_extreme(b: ir.IRBuilder, op: str, x: ir.Value, y: ir.Value, dt: DType) -> ir.Value:
    """Python's `min(x, y)` / `max(x, y)` (`op` "min" / "max"): `y` only when it is strictly smaller (larger)
    than `x`.  The first of equal values wins and a NaN is kept only when it comes first, exactly what the CPU
    executor's builtins do (PTX `min.f32` would return the number and prefer -0.0)."""
    sym = "<" if op == "min" else ">"
    if dt.kind == "f":
        c = b.fcmp_ordered(sym, widen(b, y, dt), widen(b, x, dt))
    else:
        c = b.icmp_unsigned(sym, y, x) if dt.kind == "u" else b.icmp_signed(sym, y, x)
    return b.select(c, y, x)


def scalar_abs(b: ir.IRBuilder, x: ir.Value, dt: DType) -> ir.Value:
    """Python's `abs(x)`: the sign bit cleared for floats (`abs(-0.0)` is `0.0`, a NaN stays NaN), identity
    for unsigned ints, and `0 - x` for negative signed ints (the minimum wraps to itself, as numpy's)."""
    if dt.kind == "u":
        return x
    if dt.kind == "f":
        if x.type in (F32, F64):
            return b.call(declare(b.module, f"llvm.fabs.{_float_suffix(x.type)}", x.type, [x.type]), [x])
        if x.type == F16:
            return b.bitcast(b.and_(b.bitcast(x, I16), ir.Constant(I16, 0x7FFF)), F16)
        return b.and_(x, ir.Constant(x.type, (1 << (x.type.width - 1)) - 1))  # bf16 / fp8 bits
    zero = ir.Constant(x.type, 0)
    return b.select(b.icmp_signed("<", x, zero), b.sub(zero, x), x)


def identity(op: str, dt: DType, ty: ir.Type) -> ir.Constant:
    """The neutral element of reduction `op` in type `ty` (the accumulation type)."""
    if op == "sum":
        return ir.Constant(ty, 0.0 if isinstance(ty, ir.FloatType | ir.DoubleType) else 0)
    if isinstance(ty, ir.FloatType | ir.DoubleType):
        return ir.Constant(ty, float("-inf") if op == "max" else float("inf"))
    bits = ty.width
    if dt.kind == "u":
        return ir.Constant(ty, 0 if op == "max" else (1 << bits) - 1)
    return ir.Constant(ty, -(1 << (bits - 1)) if op == "max" else (1 << (bits - 1)) - 1)


def combine(b: ir.IRBuilder, op: str, x: ir.Value, y: ir.Value, dt: DType) -> ir.Value:
    """Reduction step in the accumulation type (f32 for f16/bf16)."""
    if isinstance(x.type, ir.FloatType | ir.DoubleType):
        if op == "sum":
            return b.fadd(x, y)
        name = "maximum" if op == "max" else "minimum"
        fn = declare(b.module, f"llvm.{name}.{'f64' if x.type == F64 else 'f32'}", x.type, [x.type, x.type])
        return b.call(fn, [x, y])
    if op == "sum":
        return b.add(x, y)
    sym = ">" if op == "max" else "<"
    c = b.icmp_unsigned(sym, x, y) if dt.kind == "u" else b.icmp_signed(sym, x, y)
    return b.select(c, x, y)


def const_of(value: int | float | bool, dt: DType) -> ir.Constant:
    ty = llty(dt)
    if dt.name == "bool":
        return ir.Constant(ty, 1 if value else 0)
    if dt.name == "bf16":
        import numpy as np

        from safekernels.dtypes import f32_to_bf16

        return ir.Constant(ty, int(f32_to_bf16(np.float32(value))))
    if dt.name in F8_PTX:
        import numpy as np

        from safekernels.dtypes import f32_to_f8

        return ir.Constant(ty, int(f32_to_f8(np.float32(value), dt.name)))
    if dt.kind == "f":
        return ir.Constant(ty, float(value))
    v = int(value)
    return ir.Constant(ty, v & ((1 << dt.bits) - 1))
