"""`requires` relations as `llvm.assume` at kernel entry, for the variant launched only after they were checked.

The safe launch paths (`kernel.launch`, its generated fast path, `launch_async`) evaluate every `requires`
relation over the actual arguments before the kernel runs, in u64 with checked arithmetic: the launch is
refused unless every intermediate value lies in [0, 2**64) and the comparison holds.  The variant compiled for
those paths may therefore assume the relation, and LLVM folds `i < len(c)` plus `len(a) >= len(c)` into
`i < len(a)`, dropping the bounds-check trap of `a[i]`.

Exactness in the ABI's i64: a length is an i64 holding a non-negative count, an unsigned scalar is zero-extended
to i64, a literal is at most 2**64 - 1.  Because the launch checked that every intermediate stays in the u64
range, the i64 operations below never wrap in the unsigned sense: `add nuw`, `sub nuw` and `mul nuw` compute the
exact values, and an unsigned comparison (`icmp ult/ule/ugt/uge/eq/ne`) is exactly the launch's comparison.
So every relation of the grammar is assumed, none is approximated.  `launch_unchecked` skips the checks, so
it gets the variant compiled without assumptions (`assume_requires=False`, see `simt.gpu_launch`).
"""

from __future__ import annotations

from collections.abc import Mapping

from llvmlite import ir

from safekernels.codegen.frontend.spec import RequiresSpec
from safekernels.codegen.lowering.llvm_types import I1, I64
from safekernels.codegen.lowering.nvvm import declare

_ICMP = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}
_ARITH = {"+": "add", "-": "sub", "*": "mul"}


def _operand(
    b: ir.IRBuilder, expr: tuple[object, ...], lengths: Mapping[str, ir.Value], scalars: Mapping[str, ir.Value]
) -> ir.Value:
    tag = expr[0]
    if tag == "len":
        return lengths[str(expr[1])]
    if tag == "param":
        value = scalars[str(expr[1])]
        assert isinstance(value.type, ir.IntType)
        return value if value.type.width == 64 else b.zext(value, I64)
    if tag == "lit":
        literal = expr[1]
        assert isinstance(literal, int) and 0 <= literal < 1 << 64
        return ir.Constant(I64, literal)
    op, left, right = str(expr[1]), expr[2], expr[3]
    assert isinstance(left, tuple) and isinstance(right, tuple)
    a = _operand(b, left, lengths, scalars)
    c = _operand(b, right, lengths, scalars)
    method = getattr(b, _ARITH[op])
    result: ir.Value = method(a, c, flags=["nuw"])
    return result


def emit_assumptions(
    b: ir.IRBuilder,
    relations: tuple[RequiresSpec, ...],
    lengths: Mapping[str, ir.Value],
    scalars: Mapping[str, ir.Value],
) -> None:
    """`llvm.assume` every relation at `b`'s position (the kernel's entry, which dominates the body)."""
    if not relations:
        return
    assume = declare(b.module, "llvm.assume", ir.VoidType(), [I1])
    for rel in relations:
        lhs = _operand(b, rel.left, lengths, scalars)
        rhs = _operand(b, rel.right, lengths, scalars)
        b.call(assume, [b.icmp_unsigned(_ICMP[rel.op], lhs, rhs)])
