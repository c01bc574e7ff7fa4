"""Which tile block is running right now, if any.

The same public names serve two worlds: `tile.zeros((4,), f32)` on the host is a lazy `DeviceOp` of a
`Tensor`, inside a kernel body it is a `Tile`.  The executor sets a `BlockContext` around each block's run of
the body, and the dual-use functions ask `current_block()` which world they are in.  `tile.bid` /
`tile.num_blocks` read the block index and the grid from it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class BlockContext:
    kernel: str
    grid: tuple[int, ...]
    block: tuple[int, ...]


class _BlockState(threading.local):
    """The running block of this thread; the class default makes reading it on a fresh thread cheap (a
    missing attribute of a thread-local costs a raised and swallowed AttributeError)."""

    block: BlockContext | None = None


_local = _BlockState()
#: the thread-local that holds the running block (`block`); the tile launch reads it directly (hot path)
block_state = _local
#: the threads running a tile block now (`threading.get_ident()`): empty, nobody is inside a kernel body, and
#: the launch hot path needs no thread-local read (~0.1 µs) to know it
block_threads: set[int] = set()


def current_block() -> BlockContext | None:
    """The running tile block, or None on the host."""
    return _local.block


def require_block(what: str) -> BlockContext:
    """The running tile block; a clear TypeError when `what` is used outside a kernel body."""
    ctx = current_block()
    if ctx is None:
        raise TypeError(f"{what} is only valid inside a @tile.kernel body (it runs once per tile block)")
    return ctx


@contextmanager
def running_block(ctx: BlockContext) -> Iterator[BlockContext]:
    previous = current_block()
    _local.block = ctx
    ident = threading.get_ident()
    if previous is None:  # the outermost block of this thread
        block_threads.add(ident)
    try:
        yield ctx
    finally:
        _local.block = previous
        if previous is None:
            block_threads.discard(ident)
