"""Whether a call in a tile kernel fits the Python signature the CPU executor runs for it.

The CPU executor calls the real `safekernels.tile` functions and view methods, where a missing or extra argument
is a bare `TypeError` deep in the run; the GPU front end reads arguments by position, where it was an
`IndexError` (`tile.min(axis=0)`) or an argument silently ignored.  Checking every call against the one signature
both executors share, before either runs, makes a wrong call the same located SK006 on both, for every function
and method at once, without a hand-kept table of arities.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from functools import cache
from typing import Any


@cache
def _signature(target: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(target)
    except (TypeError, ValueError):  # a builtin without a signature: nothing to check against
        return None


def call_shape_error(target: Callable[..., Any], e: ast.Call, *, method: bool = False) -> str | None:
    """Why `e`'s arguments do not bind to `target`'s parameters (`method`: `target` is an unbound method and
    the receiver fills `self`), or None when they do or cannot be known (a `*args` / `**kwargs` splat)."""
    if any(isinstance(a, ast.Starred) for a in e.args) or any(k.arg is None for k in e.keywords):
        return None
    signature = _signature(target)
    if signature is None:
        return None
    receiver: tuple[object, ...] = (None,) if method else ()
    try:
        signature.bind(*receiver, *e.args, **{str(k.arg): k.value for k in e.keywords})
    except TypeError as exc:
        return str(exc)
    return None
