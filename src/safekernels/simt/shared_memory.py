"""`simt.shared_array(T, n)`: block-shared memory, one allocation per call site per block (like `__shared__`).

Every thread of a block that reaches the same `shared_array(...)` call gets the same array; different blocks
get different arrays.  The call and every element access need `with simt.unsafe():` because threads can race
on it (order them with `thread.sync_threads()`)."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from safekernels.dtypes import dtype_of, is_encoded
from safekernels.errors import UnsafeOperationError
from safekernels.simt._context import require_context
from safekernels.simt.types import SharedArray, poison_fill


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
    storage = np.dtype(np.float32) if is_encoded(dt) else dt.storage  # bf16 / fp8 compute in f32
    data = np.empty(int(n), dtype=storage)
    poison_fill(data)
    array: SharedArray[Any] = SharedArray(data)
    ctx.block.shared[key] = array
    return array
