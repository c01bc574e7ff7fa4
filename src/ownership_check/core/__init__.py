"""The analysis core shared by both front ends: flow IR, control-flow graph, liveness, borrow/move checker, and
the must-use check of lazy operations.

Front-end neutral by construction: nothing here imports libcst or mypy.  A front end lowers a function body or
a module's top level to `ir.Function` and calls `check_function` (`check_module` for all of a file's); see
docs/checker-internals.md.
"""

import dataclasses
from collections.abc import Iterable

from ownership_check.core import ir
from ownership_check.core.checker import check_function as check_ownership
from ownership_check.core.must_use import check_must_use
from ownership_check.diagnostics import Diagnostic


def check_module(functions: Iterable[ir.Function]) -> list[Diagnostic]:
    """Every diagnostic of a file's IR functions, each message once per line.

    Lines of a nested function belong to two analyses: its own, and the enclosing function's, where it reads the
    values it captures.  Both may report the same message on one line (a captured `z` moved before the nested
    function is defined, and moved by the nested function itself in a loop).  mypy shows a message once per line
    and the notes of both, so the CLI does the same: the later diagnostic's secondary labels and notes join the
    first one's, as `check_function` already does within one function.  Two that suggest different fixes (their
    `help:` differs: two causes of one message) stay two diagnostics; mypy prints both helps under the message.
    """
    return merge_per_line(d for function in functions for d in check_function(function))


def merge_per_line(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """`diagnostics` of several analyses of one file, each message once per line (`check_module`): a later one's
    secondary labels and notes join the first one's.  The language server merges its per-function units' so."""
    merged: dict[tuple[str, int, str, str | None], Diagnostic] = {}
    for d in diagnostics:
        key = (d.code, d.span.line, d.message, d.help)
        first = merged.get(key)
        if first is None:
            merged[key] = d
            continue
        if (d.span.column, d.span.end_line, d.span.end_column) < (
            first.span.column, first.span.end_line, first.span.end_column
        ):
            first, d = d, first
        labels = (*first.labels, *(lb for lb in d.labels if not lb.primary and lb not in first.labels))
        notes = (*first.notes, *(n for n in d.notes if n not in first.notes))
        merged[key] = dataclasses.replace(first, labels=labels, notes=notes)
    return sorted(merged.values(), key=lambda d: (d.span.line, d.span.column, d.code))


def check_function(function: ir.Function) -> list[Diagnostic]:
    """Every diagnostic of one IR function (ownership errors, then W0003 merged in), in source order."""
    found = check_ownership(function)
    unused = check_must_use(function)
    if not unused:
        return found
    return sorted([*found, *unused], key=lambda d: (d.span.line, d.span.column, d.code))


__all__ = ["check_function", "check_module", "check_must_use", "check_ownership", "ir", "merge_per_line"]
