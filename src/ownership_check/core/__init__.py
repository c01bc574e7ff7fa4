"""The analysis core shared by both front ends: flow IR, control-flow graph, liveness, borrow/move checker.

Front-end neutral by construction: nothing here imports libcst or mypy.  A front end lowers a function body or
a module's top level to `ir.Function` and calls `check_function`; see docs/checker-internals.md.
"""

from ownership_check.core import ir
from ownership_check.core.checker import check_function

__all__ = ["check_function", "ir"]
