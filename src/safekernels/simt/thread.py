"""Thread coordinates, witnesses and the block barrier: `thread.index_1d()`, `thread.sync_threads()`, ...

`index_1d()` / `index_2d(s)` mint `ThreadIndex` witnesses (the only way to obtain one, which is what makes
`DisjointSlice.get_mut` race-free); the raw special registers (`thread_idx_x()`, `block_dim_x()`, ...) are
plain ints for everything else.  x is the fastest-varying (column) axis.

On the CPU executor these read the running thread's `ThreadContext`; codegen lowers them to PTX special
registers. `sync_threads()` is a collective: the executor schedules it (every thread of the block arrives
before any leaves), so the body below only runs when the executor could not see the call (then it explains
why)."""

from __future__ import annotations

from safekernels.errors import KernelTrapError
from safekernels.simt._context import require_context, state
from safekernels.simt.types import ThreadIndex


def index_1d() -> ThreadIndex:
    """Witness for the global x index `block_idx_x() * block_dim_x() + thread_idx_x()`."""
    ctx = state.current
    if ctx is None:
        ctx = require_context("thread.index_1d")
    return ThreadIndex(ctx.bx * ctx.bdx + ctx.tx)


def index_2d(row_stride: int) -> ThreadIndex | None:
    """Witness for `row * row_stride + col` (x is the column), or None when `col >= row_stride`."""
    ctx = state.current
    if ctx is None:
        ctx = require_context("thread.index_2d")
    col = ctx.bx * ctx.bdx + ctx.tx
    if col >= row_stride:
        return None
    row = ctx.by * ctx.bdy + ctx.ty
    return ThreadIndex(row * row_stride + col)


def thread_idx_x() -> int:
    return require_context("thread.thread_idx_x").tx


def thread_idx_y() -> int:
    return require_context("thread.thread_idx_y").ty


def thread_idx_z() -> int:
    return require_context("thread.thread_idx_z").tz


def block_idx_x() -> int:
    return require_context("thread.block_idx_x").bx


def block_idx_y() -> int:
    return require_context("thread.block_idx_y").by


def block_idx_z() -> int:
    return require_context("thread.block_idx_z").bz


def block_dim_x() -> int:
    return require_context("thread.block_dim_x").bdx


def block_dim_y() -> int:
    return require_context("thread.block_dim_y").bdy


def block_dim_z() -> int:
    return require_context("thread.block_dim_z").bdz


def grid_dim_x() -> int:
    return require_context("thread.grid_dim_x").gdx


def grid_dim_y() -> int:
    return require_context("thread.grid_dim_y").gdy


def grid_dim_z() -> int:
    return require_context("thread.grid_dim_z").gdz


def lane_id() -> int:
    """The thread's lane in its warp (its rank in the block, x fastest, modulo 32)."""
    return require_context("thread.lane_id").linear_thread % 32


def sync_threads() -> None:
    """Block barrier: no thread of the block continues until every (non-exited) thread has arrived."""
    ctx = require_context("thread.sync_threads")
    if ctx.block_threads == 1:
        return
    raise KernelTrapError(unscheduled_collective_message(ctx.kernel_name, "thread.sync_threads"))


def unscheduled_collective_message(kernel_name: str, operation: str) -> str:
    return (
        f"{kernel_name}: `{operation}` was reached through a call the CPU executor could not see (call it "
        "directly from the kernel or from a @simt.device helper, by a name bound at module level), so it "
        "cannot be scheduled across the block's threads"
    )
