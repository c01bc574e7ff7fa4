"""`simt.shared_array(T, n)`: block-shared memory, one allocation per call site per block (like `__shared__`).

Every thread of a block that reaches the same `shared_array(...)` call gets the same array; different blocks
get different arrays.  The call and every element access need `with simt.unsafe():` because threads can race
on it (order them with `thread.sync_threads()`)."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from safekernels.dtypes import dtype_class, dtype_of, is_encoded
from safekernels.errors import UnsafeOperationError
from safekernels.simt._context import require_context
from safekernels.simt.types import SharedArray, poison_fill


def _rounding(dt: Any) -> Any:
    """Round a value to `dt` and give it back as the f32 a kernel computes with."""
    if dt.name == "f16":
        return lambda v: np.float32(np.float16(v))
    return dtype_class(dt.name)


def shared_array(dtype: type[Any], n: int) -> SharedArray[Any]:
    """`n` elements of `dtype` shared by the threads of this block (contents undefined until written)."""
    ctx = require_context("simt.shared_array")
    if ctx.unsafe_depth <= 0:
        raise UnsafeOperationError(
            f"{ctx.kernel_name}: use of unsafe operation `shared_array` requires an unsafe block (E0133); "
            "wrap it in `with simt.unsafe():`"
        )
    caller = sys._getframe(1)
    key = (caller.f_code, caller.f_lasti)
    existing = ctx.block.shared.get(key)
    if existing is not None:
        return existing  # type: ignore[no-any-return]
    dt = dtype_of(dtype)
    narrow = is_encoded(dt) or dt.name == "f16"  # storage types: f32 values, rounded on store (numerics.md)
    storage = np.dtype(np.float32) if narrow else dt.storage
    data = np.empty(int(n), dtype=storage)
    poison_fill(data)
    array: SharedArray[Any] = SharedArray(data, _rounding(dt) if narrow else None)
    ctx.block.shared[key] = array
    return array
