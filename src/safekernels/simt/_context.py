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
from types import FrameType
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
    return len(_host_unsafe_frames())


def _host_unsafe_frames() -> list[FrameType]:
    frames: list[FrameType] | None = getattr(_host, "frames", None)
    if frames is None:
        frames = _host.frames = []
    return frames


def enter_host_unsafe(frame: FrameType) -> None:
    """`frame` runs a `with simt.unsafe():` statement from now until `exit_host_unsafe`."""
    _host_unsafe_frames().append(frame)


def exit_host_unsafe() -> None:
    _host_unsafe_frames().pop()


#: Code objects of the frames CPython gives comprehensions and generator expressions (3.11): they run the
#: statement's own text, so a block around the statement covers them.
_INLINE_SCOPES = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})


def host_unsafe_covers(frame: FrameType | None) -> bool:
    """Whether the code running in `frame` is lexically inside a `with simt.unsafe():` of its own function.

    Unsafe is lexical, as the checker's E0133 is: a block in a caller does not cover a helper it calls.  At run
    time that is exact by frame identity: the block's frame must be the caller's own (a comprehension's frame
    stands for the statement that holds it)."""
    frames = _host_unsafe_frames()
    if not frames:
        return False
    while frame is not None and frame.f_code.co_name in _INLINE_SCOPES:
        frame = frame.f_back
    return any(entered is frame for entered in frames)


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
