"""Exceptions users of safekernels can catch.

Each mirrors a static checker code, so a bug the checker would have rejected and one only the runtime can see
(foreign arrays, dynamic code) read the same: `AliasingError` is E0502/E0499, `UseAfterMoveError` is E0382,
`BrandError` is E0308.
"""

from __future__ import annotations


class SafeKernelsError(Exception):
    """Base class of every error this package raises on purpose."""


class UseAfterMoveError(SafeKernelsError):
    """A value was used after ownership moved out of it (runtime twin of E0382)."""


class BorrowError(SafeKernelsError):
    """A value was moved or mutably borrowed while a pending operation still borrows it (twin of E0505)."""


class AliasingError(SafeKernelsError):
    """Two launch arguments overlap in device memory and at least one is mutable (twin of E0502 / E0499)."""


class CrossDeviceError(SafeKernelsError, ValueError):
    """A launch argument lives on another device than the launch runs on, or a stream belongs to another device
    than the buffer it is asked to move (names the kernel, the parameter and both devices)."""


class UnusedDeviceOpWarning(ResourceWarning):
    """A `DeviceOp` that would run a kernel was garbage-collected without being run (runtime twin of W0003).

    The message names the kernel and the `file:line` that built the op.  A `ResourceWarning`, like an unclosed
    file; safekernels shows it by default (unless `-W` options were given), as Python shows a coroutine that was
    never awaited."""


class DeviceOpAttributeError(SafeKernelsError, AttributeError):
    """An attribute of an op's *value* was asked of the lazy `DeviceOp` itself (`op.to_numpy`): the message says
    to call `.sync_on(stream)` first."""


class BrandError(SafeKernelsError):
    """A `PreparedLaunch` was used with a kernel other than the one that prepared it (twin of E0308)."""


class DeviceError(SafeKernelsError):
    """The CUDA driver reported an error (names the kernel when one was running), or no GPU is usable."""


class ShapeError(SafeKernelsError, ValueError):
    """Tile shapes disagree (partition vs tensor vs declared `Dims`); names the parameter, expected and actual."""


class KernelTrapError(DeviceError):
    """A kernel trapped (out-of-bounds read under bounds checking); on the CPU it names kernel, index and length."""


class UnsafeOperationError(SafeKernelsError):
    """An operation that needs `with simt.unsafe():` ran outside one (runtime twin of E0133)."""


class KernelAssertionError(KernelTrapError):
    """An `assert cond, "msg"` in a kernel failed: names the kernel, the assert's file:line, its message and
    (when known) the thread.  On a GPU the kernel trapped, so the CUDA context is unusable afterwards."""

    def __init__(self, text: str, *, kernel: str = "", path: str = "", line: int = 0, message: str = "") -> None:
        super().__init__(text)
        self.kernel = kernel
        self.path = path
        self.line = line
        self.message = message


class KernelDefinitionError(SafeKernelsError, TypeError):
    """A kernel definition the language cannot accept (an unannotated or unsupported parameter, `*args`, a
    lambda), found at decoration time.  `str()` is `path:line:col: SKnnn message`; `code`, `path`, `line`,
    `column` carry the parts."""

    def __init__(self, code: str, message: str, path: str, line: int, column: int) -> None:
        super().__init__(f"{path}:{line}:{column}: {code} {message}")
        self.code = code
        self.message = message
        self.path = path
        self.line = line
        self.column = column
