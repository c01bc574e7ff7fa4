"""`with simt.unsafe():` — the one way to opt into operations the type system cannot prove safe.

Statically it is lexical (the checker's E0133 and codegen look for the `with` around the operation).  At run
time, in a kernel on the CPU executor, it is a counter per thread (shared memory and `get_unchecked_mut` check
it; the front end has already refused those outside a block lexically).  On the host each Python thread keeps
the frames that entered a block, and `launch_unchecked` asks whether its caller's own frame is one of them, so
the run time is lexical too: a block in a caller does not cover a helper function it calls."""

from __future__ import annotations

import sys
from types import TracebackType

from safekernels.simt._context import ThreadContext, enter_host_unsafe, exit_host_unsafe, state


class UnsafeBlock:
    """The context manager `simt.unsafe()` returns."""

    __slots__ = ("_ctx", "_host")

    def __init__(self) -> None:
        self._ctx: ThreadContext | None = None
        self._host = False

    def __enter__(self) -> None:
        ctx = state.current
        if ctx is not None:
            ctx.unsafe_depth += 1
            self._ctx = ctx
        else:
            enter_host_unsafe(sys._getframe(1))
            self._host = True

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._ctx is not None:
            self._ctx.unsafe_depth -= 1
            self._ctx = None
        elif self._host:
            exit_host_unsafe()
            self._host = False


def unsafe() -> UnsafeBlock:
    """`with simt.unsafe():` marks code that takes responsibility for what the checker cannot prove."""
    return UnsafeBlock()
