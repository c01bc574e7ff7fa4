"""Reading data files this package wrote earlier, without trusting them: regular files, bounded size and shape.

Every reader of on-disk state (the prebuilt manifest and its cubins, the codegen cache's `.skc` entries, the
autotuner's records) goes through these two functions, because the folder they read can hold anything: a FIFO
named `manifest.json` (a plain `read()` blocks forever), a symlink to `/dev/zero` (grows until memory runs out),
JSON nested 100,000 deep (`RecursionError`), numbers like `1e400` (inf, then `OverflowError` in `int()`).

    read_regular(path, limit)   opens without blocking, refuses anything but a regular file, reads <= limit
    parse_json(data, ...)       JSON with finite numbers of bounded size, nested at most `max_depth` deep

Both raise `DiskDataError` (a `ValueError`) with a message that does not repeat the path; each reader turns it
into its own single error type (`PrebuiltError`) or into a cache miss.
"""

from __future__ import annotations

import json
import math
import os
import stat
from typing import Any


class DiskDataError(ValueError):
    """A data file that is not what this package writes (wrong file kind, too large, malformed)."""


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at `path`, refusing other file kinds and files over `limit` bytes."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise DiskDataError(f"cannot open: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise DiskDataError("not a regular file")
        if info.st_size > limit:
            raise DiskDataError(f"{info.st_size} bytes, more than the {limit} this file may have")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise DiskDataError(f"more than the {limit} bytes this file may have")
    except OSError as exc:
        raise DiskDataError(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


#: Longest integer literal accepted (a cubin length, a block size: nothing this package writes is longer).
_MAX_INT_DIGITS = 30


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS:
        raise DiskDataError(f"integer with {len(text)} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise DiskDataError(f"number {text[:40]} is not finite")
    return value


def _reject_constant(name: str) -> Any:
    raise DiskDataError(f"{name} is not a number")


def depth_of(value: Any, limit: int) -> int:
    """Nesting depth of lists/dicts in `value` (iterative), stopping early once it exceeds `limit`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_json(data: bytes | str, *, max_depth: int = 32, finite: bool = True) -> Any:
    """JSON text -> value; `DiskDataError` for invalid text, huge numbers, deep nesting and (unless
    `finite=False`, for records whose numbers are informational) NaN/Infinity."""
    try:
        if finite:
            value = json.loads(data, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_reject_constant)
        else:
            value = json.loads(data, parse_int=_parse_int)
    except DiskDataError:
        raise
    except RecursionError:
        raise DiskDataError(f"JSON nested more than {max_depth} levels deep") from None
    except (ValueError, UnicodeDecodeError, TypeError) as exc:
        raise DiskDataError(f"not valid JSON ({exc})") from None
    if depth_of(value, max_depth) > max_depth:
        raise DiskDataError(f"JSON nested more than {max_depth} levels deep")
    return value
