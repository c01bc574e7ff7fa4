"""The analysis core shared by both front ends: flow IR, control-flow graph, liveness, borrow/move checker, and
the must-use check of lazy operations.

Front-end neutral by construction: nothing here imports libcst or mypy.  A front end lowers a function body or
a module's top level to `ir.Function` and calls `check_function`; see docs/checker-internals.md.
"""

from ownership_check.core import ir
from ownership_check.core.checker import check_function as check_ownership
from ownership_check.core.must_use import check_must_use
from ownership_check.diagnostics import Diagnostic


def check_function(function: ir.Function) -> list[Diagnostic]:
    """Every diagnostic of one IR function (ownership errors, then W0003 merged in), in source order."""
    found = check_ownership(function)
    unused = check_must_use(function)
    if not unused:
        return found
    return sorted([*found, *unused], key=lambda d: (d.span.line, d.span.column, d.code))


__all__ = ["check_function", "check_must_use", "check_ownership", "ir"]
