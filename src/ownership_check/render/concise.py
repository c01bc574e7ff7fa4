"""One line per diagnostic, `path:line:col: CODE message` (SPEC §5), for editors, grep and flake8-like tools.

No summary line and no colour: every line of the output is a finding, so tools can parse it line by line.
"""

from __future__ import annotations

from collections.abc import Sequence

from ownership_check.diagnostics import Diagnostic

_CONTROL = {c: f"\\x{c:02x}" for c in range(32)} | {10: "\\n", 13: "\\r", 9: "\\t", 127: "\\x7f"}


def printable_path(path: str) -> str:
    """`path` with control characters (a newline in a file name) escaped, so that one diagnostic stays one
    line; ordinary paths are returned unchanged."""
    if path.isprintable():
        return path
    return path.translate(_CONTROL)


def concise_line(diag: Diagnostic) -> str:
    """The single-line form of one diagnostic (newlines in the message are flattened to spaces)."""
    message = " ".join(diag.message.split("\n"))
    return f"{printable_path(diag.path)}:{diag.span.line}:{diag.span.column}: {diag.code} {message}"


def render_concise(diagnostics: Sequence[Diagnostic]) -> str:
    if not diagnostics:
        return ""
    return "".join(f"{concise_line(diag)}\n" for diag in diagnostics)
