"""SK diagnostics of the tile front end, with the kernel's file, line and column.

The tile shape errors get codes of their own, declared with the SIMT ones in `codegen.frontend.codes` (the generic
ones are reused here for unsupported syntax and names):

    SK020  tile shapes do not broadcast together (elementwise operands, `where`, `broadcast_to`)
    SK021  `tile.matmul` inner dimensions (or accumulator shape) do not match
    SK022  `store` of a tile whose shape or dtype differs from the partition's tile
    SK023  other tile typing errors: dtypes, ranks, axes, loop-carried types
"""

from __future__ import annotations

import ast

from ownership_check.diagnostics import Diagnostic, DiagnosticError, Span
from safekernels.codegen.frontend.codes import TILE_CODES
from safekernels.codegen.frontend.source import FunctionSource


def tile_error(
    code: str, message: str, src: FunctionSource, node: ast.AST | None, help: str | None = None
) -> DiagnosticError:
    """A `DiagnosticError` with one diagnostic at `node` (raise it)."""
    assert code in TILE_CODES, code
    if node is None:
        line, col, width = src.first_line, src.indent + 1, 1
    else:
        line, col, width = src.position(node)
    diag = Diagnostic(code=code, message=message, path=src.path, span=Span.point(line, col, width), help=help)
    return DiagnosticError([diag])
