"""One line per diagnostic, `path:line:col: CODE message` (SPEC §5), for editors, grep and flake8-like tools.

No summary line and no colour: every line of the output is a finding, so tools can parse it line by line.
"""

from __future__ import annotations

from collections.abc import Sequence

from ownership_check.diagnostics import Diagnostic


def concise_line(diag: Diagnostic) -> str:
    """The single-line form of one diagnostic (newlines in the message are flattened to spaces)."""
    message = " ".join(diag.message.split("\n"))
    return f"{diag.path}:{diag.span.line}:{diag.span.column}: {diag.code} {message}"


def render_concise(diagnostics: Sequence[Diagnostic]) -> str:
    if not diagnostics:
        return ""
    return "".join(f"{concise_line(diag)}\n" for diag in diagnostics)
