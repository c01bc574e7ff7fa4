"""The SK diagnostic codes codegen reports (SIMT and tile), declared once.

docs/simt-compiler.md and docs/tile-compiler.md list the same codes; `safekernels explain SKnnn` prints them.

Every construct the front end does not support ends here, with the kernel's file, line and column, instead
of a traceback from llvmlite or the driver.
"""

from __future__ import annotations

from typing import Final

from ownership_check.diagnostics import Diagnostic, DiagnosticError, Span

SK_CODES: Final[dict[str, str]] = {
    "SK001": "unsupported Python syntax in a kernel",
    "SK002": "unknown or unbound name",
    "SK003": "type error",
    "SK004": "unsupported call, attribute or method",
    "SK005": "unsafe operation outside `with simt.unsafe():` (codegen's twin of E0133)",
    "SK006": "wrong number or kind of arguments",
    "SK007": "a variable is assigned values of incompatible types",
    "SK008": "a compile-time constant is required",
    "SK009": "unsupported return or helper call (value return from a kernel, recursion)",
    "SK010": "kernel source is unavailable or unparsable",
    "SK011": "unsupported kernel parameter",
    "SK012": "invalid launch contract (`requires` relation, block, domain) at decoration time",
    # tile front end (codegen.tile): shape and typing errors of tile operations
    "SK020": "tile shapes do not broadcast together",
    "SK021": "matmul inner dimensions do not match",
    "SK022": "stored tile does not match the partition's tile",
    "SK023": "tile type error",
}

#: The codes the tile front end reports: the generic ones it shares with SIMT plus its own shape codes.
TILE_CODES: Final[frozenset[str]] = frozenset(
    {"SK001", "SK002", "SK004", "SK006", "SK008", "SK020", "SK021", "SK022", "SK023"}
)


def sk_error(
    code: str, message: str, path: str, line: int, column: int, width: int = 1, help: str | None = None
) -> DiagnosticError:
    """A `DiagnosticError` carrying one SK diagnostic (raise it)."""
    assert code in SK_CODES, code
    diag = Diagnostic(code=code, message=message, path=path, span=Span.point(line, column, width), help=help)
    return DiagnosticError([diag])
