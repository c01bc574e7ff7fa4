"""NVVM intrinsics the lowering uses: special registers, barrier, warp shuffles, trap.

Warp shuffles take the lanes that are present as their member mask (`activemask`): a partial last warp
(a block of 80 threads has a warp of 16) or lanes that already returned are not in it, and `shfl.sync` with a
member that does not exist is undefined.  Every user-level shuffle is therefore an indexed shuffle from a
source lane computed here, replaced by the lane's own index when the source is outside the warp or absent.

Declared by name only; LLVM attaches each intrinsic's attributes (readnone, convergent, noreturn) itself when
the module is parsed, so `sync_threads` and the shuffles keep their convergent semantics through O3.
"""

from __future__ import annotations

from llvmlite import ir

from safekernels.codegen.lowering.llvm_types import F32, I1, I32, I64

FULL_MASK = 0xFFFFFFFF
_SHFL_MODE = {"shfl_down": "down", "shfl_up": "up", "shfl_xor": "bfly", "shfl_idx": "idx"}


def declare(module: ir.Module, name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
    existing = module.globals.get(name)
    if isinstance(existing, ir.Function):
        return existing
    return ir.Function(module, ir.FunctionType(ret, args), name)


def sreg(b: ir.IRBuilder, reg: str) -> ir.Value:
    """A special register (`tid.x`, `ctaid.y`, `laneid`, ...) widened to i64."""
    fn = declare(b.module, f"llvm.nvvm.read.ptx.sreg.{reg}", I32, [])
    return b.zext(b.call(fn, []), I64)


def barrier(b: ir.IRBuilder) -> None:
    fn = declare(b.module, "llvm.nvvm.barrier.cta.sync.aligned.all", ir.VoidType(), [I32])
    b.call(fn, [ir.Constant(I32, 0)])


def trap(b: ir.IRBuilder) -> None:
    fn = declare(b.module, "llvm.trap", ir.VoidType(), [])
    b.call(fn, [])
    b.unreachable()


def _shfl32(
    b: ir.IRBuilder, mode: str, value: ir.Value, lane: ir.Value, mask: ir.Value | None = None
) -> ir.Value:
    kind = "f32" if value.type == F32 else "i32"
    fn = declare(b.module, f"llvm.nvvm.shfl.sync.{mode}.{kind}", value.type, [I32, value.type, I32, I32])
    clamp = 0 if mode == "up" else 0x1F
    member = ir.Constant(I32, FULL_MASK) if mask is None else mask
    return b.call(fn, [member, value, lane, ir.Constant(I32, clamp)])


def active_mask(b: ir.IRBuilder) -> ir.Value:
    """The lanes of this warp that exist and have not exited (`activemask.b32`)."""
    fn = declare(b.module, "llvm.nvvm.activemask", I32, [])
    return b.call(fn, [])


def lane_id(b: ir.IRBuilder) -> ir.Value:
    """This thread's lane (i32)."""
    fn = declare(b.module, "llvm.nvvm.read.ptx.sreg.laneid", I32, [])
    return b.call(fn, [])


def lane_present(b: ir.IRBuilder, mask: ir.Value, src: ir.Value) -> ir.Value:
    """Whether lane `src` (any i32) is inside the warp and in `mask` (no poison shift for `src >= 32`)."""
    inside = b.icmp_unsigned("<", src, ir.Constant(I32, 32))
    bit = b.and_(b.lshr(mask, b.and_(src, ir.Constant(I32, 31))), ir.Constant(I32, 1))
    return b.and_(inside, b.icmp_unsigned("!=", bit, ir.Constant(I32, 0)))


def lowest_lane(b: ir.IRBuilder, lanes: ir.Value) -> ir.Value:
    """The index of the lowest set bit of a non-zero lane set."""
    fn = declare(b.module, "llvm.cttz.i32", I32, [I32, I1])
    return b.call(fn, [lanes, ir.Constant(I1, 1)])


def shuffle(
    b: ir.IRBuilder,
    op: str,
    value: ir.Value,
    lane: ir.Value,
    *,
    signed: bool = True,
    mask: ir.Value | None = None,
) -> ir.Value:
    """`shfl.sync` of any scalar among `mask` (default: the full warp): 32-bit directly, 64-bit as two halves,
    narrower ints widened."""
    mode = _SHFL_MODE[op]
    ty = value.type
    if ty == F32 or ty == I32:
        return _shfl32(b, mode, value, lane, mask)
    if isinstance(ty, ir.IntType) and ty.width < 32:
        wide = b.sext(value, I32) if signed and ty != I1 else b.zext(value, I32)
        return b.trunc(_shfl32(b, mode, wide, lane, mask), ty)
    if isinstance(ty, ir.HalfType) or type(ty).__name__ == "BFloatType":  # not every llvmlite has BFloatType
        wide_f = b.fpext(value, F32)
        return b.fptrunc(_shfl32(b, mode, wide_f, lane, mask), ty)
    bits = b.bitcast(value, I64) if not isinstance(ty, ir.IntType) else value
    lo = b.trunc(bits, I32)
    hi = b.trunc(b.lshr(bits, ir.Constant(I64, 32)), I32)
    lo2 = _shfl32(b, mode, lo, lane, mask)
    hi2 = _shfl32(b, mode, hi, lane, mask)
    joined = b.or_(b.zext(lo2, I64), b.shl(b.zext(hi2, I64), ir.Constant(I64, 32)))
    return joined if isinstance(ty, ir.IntType) else b.bitcast(joined, ty)
