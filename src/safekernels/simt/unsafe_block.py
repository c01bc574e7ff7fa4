"""`with simt.unsafe():` — the one way to opt into operations the type system cannot prove safe.

Statically it is lexical (the checker's E0133 and codegen look for the `with` around the operation).  At run
time it is a counter: in a kernel on the CPU executor each thread has its own depth (shared memory and
`get_unchecked_mut` check it), and on the host each Python thread has one (`launch_unchecked` checks it)."""

from __future__ import annotations

from types import TracebackType

from safekernels.simt._context import ThreadContext, add_host_unsafe_depth, state


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
            add_host_unsafe_depth(1)
            self._host = True

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._ctx is not None:
            self._ctx.unsafe_depth -= 1
            self._ctx = None
        elif self._host:
            add_host_unsafe_depth(-1)
            self._host = False


def unsafe() -> UnsafeBlock:
    """`with simt.unsafe():` marks code that takes responsibility for what the checker cannot prove."""
    return UnsafeBlock()
