"""Warp collectives over the full 32-lane warp: shuffles and reductions.

Every lane of the warp must reach the same collective (as with `__shfl_*_sync(0xffffffff, ...)`); the CPU
executor runs the warp's lanes up to the collective, exchanges their values, then resumes them.  A lane whose
source lane is outside the warp (or does not exist because the block is not a multiple of 32 threads) gets its
own value back; reductions combine the lanes that exist.  Codegen lowers these to `shfl.sync` / butterfly
reductions."""

from __future__ import annotations

from typing import TypeVar

from safekernels.errors import KernelTrapError
from safekernels.simt._context import require_context
from safekernels.simt.thread import unscheduled_collective_message

V = TypeVar("V")

WARP_SIZE = 32


def _solo(operation: str, value: V) -> V:
    ctx = require_context(f"warp.{operation}")
    if ctx.block_threads == 1:
        return value  # a one-thread warp: every source lane but our own is absent
    raise KernelTrapError(unscheduled_collective_message(ctx.kernel_name, f"warp.{operation}"))


def shfl_down(value: V, delta: int) -> V:
    """The value of lane `lane_id() + delta` (own value when that lane is outside the warp)."""
    return _solo("shfl_down", value)


def shfl_up(value: V, delta: int) -> V:
    """The value of lane `lane_id() - delta` (own value when that lane is below 0)."""
    return _solo("shfl_up", value)


def shfl_xor(value: V, lane_mask: int) -> V:
    """The value of lane `lane_id() ^ lane_mask` (the butterfly step of a reduction)."""
    return _solo("shfl_xor", value)


def shfl_idx(value: V, src_lane: int) -> V:
    """The value of lane `src_lane % 32` (a broadcast when every lane passes the same lane)."""
    return _solo("shfl_idx", value)


def reduce_sum(value: V) -> V:
    """Sum over the warp's lanes, returned to every lane (butterfly order, as the GPU adds)."""
    return _solo("reduce_sum", value)


def reduce_max(value: V) -> V:
    """Maximum over the warp's lanes, returned to every lane."""
    return _solo("reduce_max", value)


def reduce_min(value: V) -> V:
    """Minimum over the warp's lanes, returned to every lane."""
    return _solo("reduce_min", value)
