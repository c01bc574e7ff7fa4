"""`AtomicSlice` read-modify-writes and compare-exchange with a memory order and a scope.

Each operation is a relaxed (`monotonic`) LLVM atomic at the requested scope, bracketed by fences for the
stronger orders (the fence-based mapping of the C++ model that CUDA's own `cuda::atomic_ref` uses on sm_70+):

    relaxed   atomic
    acquire   atomic; fence acquire          release   fence release; atomic
    acq_rel   fence release; atomic; fence acquire
    seq_cst   fence seq_cst; atomic; fence seq_cst

Scopes map to LLVM sync scopes: `block` -> "block" (PTX `.cta`), `device` -> "device" (`.gpu`, what CUDA's
`atomicAdd` & co. use), `system` -> the default system scope (`.sys`, host-mapped memory).  llvmlite has no
sync-scope argument, so the scope is written into the ordering text (`syncscope("block") monotonic`), which
LLVM's parser accepts in exactly that position.
"""

from __future__ import annotations

from llvmlite import ir

from safekernels.dtypes import DType

_SCOPES = {"block": 'syncscope("block") ', "device": 'syncscope("device") ', "system": ""}
_RMW = {
    "f": {"add": "fadd", "max": "fmax", "min": "fmin", "exchange": "xchg"},
    "i": {"add": "add", "max": "max", "min": "min", "exchange": "xchg", "and": "and", "or": "or", "xor": "xor"},
    "u": {"add": "add", "max": "umax", "min": "umin", "exchange": "xchg", "and": "and", "or": "or", "xor": "xor"},
}


def _fence(b: ir.IRBuilder, order: str, scope: str) -> None:
    b.fence(order, None if scope == "system" else ("block" if scope == "block" else "device"))


def _before(b: ir.IRBuilder, order: str, scope: str) -> None:
    if order in ("release", "acq_rel"):
        _fence(b, "release", scope)
    elif order == "seq_cst":
        _fence(b, "seq_cst", scope)


def _after(b: ir.IRBuilder, order: str, scope: str) -> None:
    if order in ("acquire", "acq_rel"):
        _fence(b, "acquire", scope)
    elif order == "seq_cst":
        _fence(b, "seq_cst", scope)


def emit_rmw(b: ir.IRBuilder, op: str, ptr: ir.Value, value: ir.Value, dt: DType, order: str, scope: str) -> ir.Value:
    """The old value of `ptr` after `op` (add max min exchange and or xor) with `value`."""
    _before(b, order, scope)
    old = b.atomic_rmw(_RMW[dt.kind][op], ptr, value, _SCOPES[scope] + "monotonic")
    _after(b, order, scope)
    return old


def emit_cas(
    b: ir.IRBuilder, ptr: ir.Value, expected: ir.Value, desired: ir.Value, dt: DType, order: str, scope: str
) -> ir.Value:
    """The old value of `ptr`; `desired` was stored iff the old value equalled `expected` (bitwise for floats,
    like CUDA's `atomicCAS` on the bit pattern)."""
    _before(b, order, scope)
    if dt.kind == "f":
        bits = ir.IntType(dt.bits)
        expected, desired = b.bitcast(expected, bits), b.bitcast(desired, bits)
    ordering = _SCOPES[scope] + "monotonic"
    pair = b.cmpxchg(ptr, expected, desired, ordering, "monotonic")
    old = b.extract_value(pair, 0)
    _after(b, order, scope)
    return b.bitcast(old, ptr_elem_type(dt)) if dt.kind == "f" else old


def ptr_elem_type(dt: DType) -> ir.Type:
    return ir.FloatType() if dt.bits == 32 else ir.DoubleType()
