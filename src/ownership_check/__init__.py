"""Static ownership and aliasing checker for safekernels code (the rules: docs/reference.md §4, docs/checker.md).

Layout, in pipeline order: `diagnostics` (the shared model), `core` (places, flow IR, control-flow graph, the
borrow/move dataflow checker; imports neither libcst nor mypy), `frontend` (prescan and `ast` lowering to the flow IR),
`render` (text/concise/json/sarif/github), `cli`.  Importing this package is cheap and pulls in no front end.
"""

from safekernels import safe_sys_path  # noqa: F401  (first: `python -m ownership_check` never imports the cwd's files)

# isort: split
from ownership_check.diagnostics import Diagnostic, DiagnosticError, Label, Severity, Span

__all__ = ["Diagnostic", "DiagnosticError", "Label", "Severity", "Span"]
