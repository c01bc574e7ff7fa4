"""Where a running kernel thread's coordinates live while the CPU executor runs it.

Kernel code calls `thread.index_1d()`, `simt.shared_array(...)` and friends as plain functions; they need to
know which thread of which block is asking.  The CPU executor sets `state.current` to the `ThreadContext` of
the thread it is about to run (or resume) and clears it afterwards, so those functions read one module
attribute and no arguments.  On the GPU none of this exists: codegen lowers the same calls to special
registers.

Unsafe depth is tracked in two places on purpose: each kernel thread has its own
(`ThreadContext.unsafe_depth`, so a thread suspended at a barrier inside `with simt.unsafe():` does not lend
its unsafety to the next thread), and the host has a per-Python-thread counter for `launch_unchecked`."""

from __future__ import annotations

import threading
from typing import Any


class BlockState:
    """What the threads of one block share: the static shared-memory allocations, keyed by call site."""

    __slots__ = ("shared",)

    def __init__(self) -> None:
        self.shared: dict[tuple[Any, int], Any] = {}


class ThreadContext:
    """The coordinates of one kernel thread (mutated in place by the executor's fast path)."""

    __slots__ = (
        "bdx",
        "bdy",
        "bdz",
        "block",
        "bx",
        "by",
        "bz",
        "gdx",
        "gdy",
        "gdz",
        "kernel_name",
        "lockstep",
        "tx",
        "ty",
        "tz",
        "unchecked_indexing",
        "unsafe_depth",
    )

    def __init__(
        self,
        kernel_name: str,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        *,
        lockstep: bool,
        unchecked_indexing: bool = False,
    ) -> None:
        self.kernel_name = kernel_name
        self.gdx, self.gdy, self.gdz = grid
        self.bdx, self.bdy, self.bdz = block
        self.bx = self.by = self.bz = 0
        self.tx = self.ty = self.tz = 0
        self.block = BlockState()
        self.lockstep = lockstep  # True when collectives are scheduled (generator mode)
        self.unchecked_indexing = unchecked_indexing
        self.unsafe_depth = 0

    @property
    def linear_thread(self) -> int:
        """The thread's rank in its block, x fastest (the order warps are formed in)."""
        return self.tx + self.bdx * (self.ty + self.bdy * self.tz)

    @property
    def block_threads(self) -> int:
        return self.bdx * self.bdy * self.bdz

    def describe(self) -> str:
        return f"thread ({self.tx}, {self.ty}, {self.tz}) of block ({self.bx}, {self.by}, {self.bz})"


class _State:
    __slots__ = ("current",)

    def __init__(self) -> None:
        self.current: ThreadContext | None = None


#: The thread the CPU executor is running right now (None on the host).
state = _State()

_host = threading.local()


def host_unsafe_depth() -> int:
    return int(getattr(_host, "depth", 0))


def add_host_unsafe_depth(delta: int) -> None:
    _host.depth = host_unsafe_depth() + delta


def require_context(operation: str) -> ThreadContext:
    """The running thread's context, or a clear error when kernel-only code is called on the host."""
    ctx = state.current
    if ctx is None:
        raise RuntimeError(
            f"`{operation}` can only be called inside a running @simt.kernel (or a @simt.device helper it "
            "calls); "
            "on the host, launch the kernel with kernel.launch(prepared, stream, *args)"
        )
    return ctx
