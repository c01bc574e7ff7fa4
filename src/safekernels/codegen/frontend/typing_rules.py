"""The typing rules of kernel arithmetic, as small pure functions.

- Literals and module constants are weak: `f32 * 2.0 -> f32`, `i32 + 1 -> i32`.  Two weak operands stay weak.
- Two typed ints promote like numpy (`i32 + i64 -> i64`, `u32 + i32 -> i64`); `u64` with a signed int is
  refused (numpy would silently go to f64).
- Two typed floats promote like numpy (`f32 + f64 -> f64`: the f64 was explicit).
- A typed int with a typed float gives the float type (numpy would give f64; no silent f64 promotion here).
- A typed int with a float literal is refused: say which float type you want (`f32(i) * 0.5`).
Each function returns the common type or a message explaining the refusal.
"""

from __future__ import annotations

import numpy as np

from safekernels.codegen.ir.types import (
    BOOL,
    WEAK_FLOAT,
    WEAK_INT,
    ScalarTy,
    Ty,
    WeakTy,
)
from safekernels.dtypes import dtype_of


def unify(a: Ty, b: Ty) -> Ty | str:
    """The common operand type of a binary arithmetic operation, or an error message."""
    if isinstance(a, WeakTy) and isinstance(b, WeakTy):
        return WEAK_FLOAT if "float" in (a.kind, b.kind) else WEAK_INT
    if isinstance(a, WeakTy):
        a, b = b, a
    if not isinstance(a, ScalarTy):
        return f"`{a.describe()}` is not a number"
    if a.is_bool:
        return "arithmetic on a bool (cast it with i32(...) first)"
    if isinstance(b, WeakTy):
        if b.kind == "float" and a.is_int:
            return (
                f"mixing `{a.describe()}` with a float literal (cast the int explicitly, for example "
                "`f32(x)`, so the float type is not guessed)"
            )
        return a
    if not isinstance(b, ScalarTy):
        return f"`{b.describe()}` is not a number"
    if b.is_bool:
        return "arithmetic on a bool (cast it with i32(...) first)"
    if a == b:
        return a
    if a.is_float and b.is_float:
        return a if a.bits >= b.bits else b
    if a.is_float:
        return a
    if b.is_float:
        return b
    if (a.dtype.name == "u64" and b.is_signed) or (b.dtype.name == "u64" and a.is_signed):
        return "mixing u64 with a signed integer (cast one side explicitly)"
    promoted = np.promote_types(a.dtype.storage, b.dtype.storage)
    return ScalarTy(dtype_of(promoted))


def join(old: Ty | None, new: Ty) -> Ty | str:
    """The type of a variable assigned a value of `new` after values of `old`, or an error message."""
    if old is None or old == new:
        return new
    if isinstance(old, WeakTy) and isinstance(new, WeakTy):
        return WEAK_FLOAT if "float" in (old.kind, new.kind) else WEAK_INT
    if isinstance(old, ScalarTy | WeakTy) and isinstance(new, ScalarTy | WeakTy):
        if BOOL in (old, new):
            return f"was `{old.describe()}`, now `{new.describe()}`"
        strong_old = isinstance(old, ScalarTy)
        strong_new = isinstance(new, ScalarTy)
        if strong_old and strong_new:
            assert isinstance(old, ScalarTy) and isinstance(new, ScalarTy)
            if old.is_int and new.is_int:
                result = unify(old, new)
                return result
            if old.is_float and new.is_float:
                return old if old.bits >= new.bits else new
            return f"was `{old.describe()}`, now `{new.describe()}`"
        strong, weak = (old, new) if strong_old else (new, old)
        assert isinstance(strong, ScalarTy) and isinstance(weak, WeakTy)
        if weak.kind == "float" and strong.is_int:
            return f"was `{old.describe()}`, now `{new.describe()}`"
        return strong
    return f"was `{old.describe()}`, now `{new.describe()}`"
