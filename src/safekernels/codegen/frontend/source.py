"""Where a kernel's source comes from, and how AST positions map back to the user's file.

`inspect.getsourcelines` gives the decorated function as it sits in its file; we dedent it (methods and nested
functions are indented), parse it with `ast`, and remember the line offset and the removed indentation so
every diagnostic points at the user's real line and column.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from safekernels.codegen.frontend.codes import sk_error


@dataclass(frozen=True)
class FunctionSource:
    path: str
    text: str  # dedented source of the def (decorators included)
    tree: ast.FunctionDef
    first_line: int  # file line of text's line 1
    indent: int  # columns removed by dedent

    def position(self, node: ast.AST) -> tuple[int, int, int]:
        """(line, column, width) in the file; columns are 1-based."""
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        end_line = getattr(node, "end_lineno", line)
        end_col = getattr(node, "end_col_offset", col + 1)
        width = (end_col - col) if end_line == line and end_col is not None else 1
        return line + self.first_line - 1, col + self.indent + 1, max(1, width)


def load_source(fn: Callable[..., Any]) -> FunctionSource:
    target = inspect.unwrap(fn)
    path = inspect.getsourcefile(target) or (
        getattr(target, "__code__", None) and target.__code__.co_filename
    )
    path = str(path or "<unknown>")
    try:
        lines, first_line = inspect.getsourcelines(target)
    except (OSError, TypeError) as exc:
        line = getattr(getattr(target, "__code__", None), "co_firstlineno", 1)
        raise sk_error(
            "SK010", f"cannot read the source of `{getattr(fn, '__name__', fn)}`: {exc}", path, line, 1
        ) from None
    raw = "".join(lines)
    text = textwrap.dedent(raw)
    first_raw = next((ln for ln in lines if ln.strip()), "")
    first_ded = next((ln for ln in text.splitlines(keepends=True) if ln.strip()), "")
    indent = len(first_raw) - len(first_ded)
    try:
        module = ast.parse(text)
    except SyntaxError as exc:
        raise sk_error(
            "SK010",
            f"cannot parse kernel source: {exc.msg}",
            path,
            (exc.lineno or 1) + first_line - 1,
            (exc.offset or 1) + indent,
        ) from None
    defs = [n for n in module.body if isinstance(n, ast.FunctionDef)]
    if not defs:
        raise sk_error(
            "SK010",
            "kernel source is not a plain `def` (async def and lambdas are unsupported)",
            path,
            first_line,
            1 + indent,
        )
    return FunctionSource(path, text, defs[0], first_line, max(indent, 0))
