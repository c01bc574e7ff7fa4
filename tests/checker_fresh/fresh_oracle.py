"""Run fresh checker programs on the CPU executor and say what the runtime itself caught, and where.

The runtime is the oracle for tests/checker_fresh: a program whose header expects a diagnostic must fail with
the runtime's own error (or, for W0003, its `UnusedDeviceOpWarning`) at the expected line; a clean one must run.
Run as a script (`python tests/checker_fresh/fresh_oracle.py FILE...`): it executes every file in this one process,
one after another, and prints one JSON object per file: ``{"path", "code", "line", "calls", "detail"}`` where `code` is
``"clean"`` when the program ran without a safekernels ownership error and `calls` lists the program's lines
of the calls that led to `line` (a helper function's launch raising for arguments its caller chose).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import runpy
import sys
import traceback
import warnings
from pathlib import Path

_CODE = re.compile(r"\((E\d{4})\)")


def _lines_in(tb: traceback.StackSummary, path: str) -> list[int]:
    """The program's own lines on the failing stack, outermost first: the last is where the runtime raised,
    the earlier ones the calls that led there (a checker reports a conflict made by a call at the call)."""
    return [frame.lineno for frame in tb if os.path.realpath(frame.filename) == path and frame.lineno is not None]


def _code_of(exc: BaseException) -> str | None:
    import safekernels as sk

    name = type(exc).__name__
    if isinstance(exc, sk.UseAfterMoveError):
        return "E0382"
    if name == "UnsafeOperationError":
        return "E0133"
    if isinstance(exc, (sk.AliasingError, sk.BorrowError)):
        found = _CODE.search(str(exc))
        return found.group(1) if found else name
    if isinstance(exc, sk.BrandError):  # a prepared launch of another kernel: rustc's E0308 wording
        found = _CODE.search(str(exc))
        return found.group(1) if found else name
    return None


def run_one(path: Path) -> dict[str, object]:
    """Execute one program as `__main__` and classify how it ended."""
    real = os.path.realpath(path)
    result: dict[str, object] = {"path": str(path), "code": "clean", "line": None, "detail": ""}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            # what the program prints goes to stderr: stdout carries only this oracle's JSON lines
            with contextlib.redirect_stdout(sys.stderr):
                namespace = runpy.run_path(str(path), run_name="__main__")
            namespace.clear()
            del namespace
        except BaseException as exc:  # the program's own failure is the measurement
            code = _code_of(exc)
            summary = traceback.extract_tb(exc.__traceback__)
            lines = _lines_in(summary, real)
            own = [f for f in summary if os.path.realpath(f.filename) == real and f.lineno is not None]
            result.update(
                code=code or f"crash:{type(exc).__name__}",
                line=lines[-1] if lines else None,
                calls=lines[:-1],
                # the lines of the statement that raised: a launch written over several lines raises at its first
                # line, while a checker names the offending argument's own line
                span=[own[-1].lineno, own[-1].end_lineno or own[-1].lineno] if own else None,
                detail=str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__,
            )
            del exc
        gc.collect()
    if result["code"] == "clean":
        for warning in caught:
            if warning.category.__name__ == "UnusedDeviceOpWarning":
                found = re.search(re.escape(path.name) + r":(\d+)", str(warning.message))
                result.update(code="W0003", line=int(found.group(1)) if found else None,
                              detail=str(warning.message)[:300])
                break
    return result


def main(argv: list[str]) -> int:
    os.environ["SAFEKERNELS_DEVICE"] = "cpu"
    for name in argv:
        print(json.dumps(run_one(Path(name))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
