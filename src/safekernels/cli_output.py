"""What the command-line tools do when their standard output cannot be written: one place, every command.

`safekernels doctor | head -1` closes the pipe after one line; `ownership-check > /dev/full` fails every write
with ENOSPC; `safekernels -V >&-` starts with no standard output at all.  Python turns each into a traceback
(and then a second one at exit, when it flushes stdout again).  `run_cli` wraps a command's main function:

    broken pipe (the reader went away)   quiet, exit status 141 (128 + SIGPIPE, what a shell reports for a
                                         tool killed by the pipe)
    any other write error (ENOSPC, EIO,  one line on stderr, `PROG: error: cannot write the output: REASON`,
    EBADF for a closed stdout, EFBIG)    exit status 2 (the output is lost: never the clean status 0)

Afterwards stdout points at /dev/null, so the interpreter's own flush at exit has nothing left to fail on.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Callable

EXIT_BROKEN_PIPE = 128 + 13
EXIT_OUTPUT_ERROR = 2
#: Errors a write to stdout can raise that mean "the output went nowhere", not a bug in the command.
_OUTPUT_ERRNOS = frozenset({errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EBADF, errno.EFBIG, errno.EDQUOT})


class ClosedStream(io.TextIOBase):
    """Stands in for a standard stream the process was started without (`>&-`): every write fails."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _silence_stdout() -> None:
    """Point fd 1 (and `sys.stdout`) at /dev/null so nothing else tries the broken stream."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    with contextlib.suppress(OSError, ValueError):
        sys.stdout = open(os.devnull, "w")


def _say(message: str) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(message)
        sys.stderr.flush()


def is_output_error(exc: BaseException) -> bool:
    """Whether `exc` is a failed write to the output (for a command's own catch-all, which must let it pass)."""
    return isinstance(exc, OSError) and exc.errno in _OUTPUT_ERRNOS


def run_cli(run: Callable[[], int], prog: str) -> int:
    """`run()`'s status, or the status of the output failure it hit (module docstring)."""
    if sys.stdout is None:
        sys.stdout = ClosedStream()
    try:
        status = run()
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        if not is_output_error(exc):
            raise
        _silence_stdout()
        _say(f"{prog}: error: cannot write the output: {exc.strerror or exc}\n")
        return EXIT_OUTPUT_ERROR
