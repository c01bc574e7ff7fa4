"""`math.*` inside kernels: libdevice calls (accurate, the default) or NVVM approximations (opt-in).

libdevice functions are declared here as `__nv_<name>f` (f32) / `__nv_<name>` (f64) and resolved when
`codegen.libdevice` links the bitcode into the module.  With `approx_math=True` (the documented
`SAFEKERNELS_APPROX_MATH=1` flag) a small set of f32 functions uses the hardware approximations instead
(`ex2.approx`, `lg2.approx`, `sin/cos.approx`, `tanh.approx`; errors of a few ulp, worse near zeros of sin/cos
for large arguments), and everything else still needs libdevice.
"""

from __future__ import annotations

import math
from typing import Final

from llvmlite import ir

from safekernels.codegen.lowering.llvm_types import F32, I32
from safekernels.codegen.lowering.nvvm import declare

_LIBDEVICE_NAME: Final = {"gamma": "tgamma", "isfinite": "isfinite"}
_PREDICATES: Final = ("isnan", "isinf", "isfinite")
_NATIVE: Final = {
    "fabs": "llvm.fabs",
    "floor": "llvm.floor",
    "ceil": "llvm.ceil",
    "trunc": "llvm.trunc",
    "sqrt": "llvm.sqrt",
    "copysign": "llvm.copysign",
}
APPROX_F32: Final = frozenset({"exp", "exp2", "log", "log2", "log10", "sin", "cos", "tanh"})


class NeedsLibdevice(Exception):
    """Raised when a math function has no lowering without libdevice."""


def libdevice_symbol(name: str, ty: ir.Type) -> str:
    base = _LIBDEVICE_NAME.get(name, name)
    if name == "isfinite":
        return "__nv_finitef" if ty == F32 else "__nv_isfinited"
    if name in ("isnan", "isinf"):
        return f"__nv_{name}{'f' if ty == F32 else 'd'}"
    return f"__nv_{base}{'f' if ty == F32 else ''}"


def emit_math(b: ir.IRBuilder, name: str, args: list[ir.Value], *, approx: bool, have_libdevice: bool) -> ir.Value:
    ty = args[0].type
    if name in _NATIVE:
        fn = declare(b.module, f"{_NATIVE[name]}.{'f32' if ty == F32 else 'f64'}", ty, [ty] * len(args))
        return b.call(fn, args)
    if name in _PREDICATES and not have_libdevice:
        x = args[0]
        if name == "isnan":
            return b.fcmp_unordered("uno", x, x)
        absx = b.call(declare(b.module, f"llvm.fabs.{'f32' if ty == F32 else 'f64'}", ty, [ty]), [x])
        inf = ir.Constant(ty, math.inf)
        return b.fcmp_ordered("==", absx, inf) if name == "isinf" else b.fcmp_ordered("<", absx, inf)
    if approx and ty == F32 and name in APPROX_F32:
        return _approx(b, name, args[0])
    if not have_libdevice:
        raise NeedsLibdevice(name)
    symbol = libdevice_symbol(name, ty)
    if name in _PREDICATES:
        fn = declare(b.module, symbol, I32, [ty])
        return b.icmp_signed("!=", b.call(fn, args), ir.Constant(I32, 0))
    fn = declare(b.module, symbol, ty, [ty] * len(args))
    return b.call(fn, args)


def _approx(b: ir.IRBuilder, name: str, x: ir.Value) -> ir.Value:
    def nv(intr: str, v: ir.Value) -> ir.Value:
        return b.call(declare(b.module, intr, F32, [F32]), [v])

    if name == "exp2":
        return nv("llvm.nvvm.ex2.approx.f", x)
    if name == "exp":
        return nv("llvm.nvvm.ex2.approx.f", b.fmul(x, ir.Constant(F32, math.log2(math.e))))
    if name in ("log", "log2", "log10"):
        lg = nv("llvm.nvvm.lg2.approx.f", x)
        scale = {"log": math.log(2.0), "log2": 1.0, "log10": math.log10(2.0)}[name]
        return lg if scale == 1.0 else b.fmul(lg, ir.Constant(F32, scale))
    if name == "sin":
        return nv("llvm.nvvm.sin.approx.f", x)
    if name == "cos":
        return nv("llvm.nvvm.cos.approx.f", x)
    return nv("llvm.nvvm.tanh.approx.f32", x)
