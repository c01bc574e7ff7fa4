"""One line per diagnostic, `path:line:col: CODE message`, for editors, grep and flake8-like tools.

No summary line and no colour: every line of the output is a finding, so tools can parse it line by line.
"""

from __future__ import annotations

from collections.abc import Sequence

from ownership_check.diagnostics import Diagnostic

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def printable_path(path: str) -> str:
    """`path` with unprintable characters escaped (a newline, an escape sequence, U+2028, the stand-ins Python uses
    for undecodable bytes), so that one diagnostic stays one line of valid UTF-8; ordinary paths are unchanged."""
    if path.isprintable():
        return path
    return "".join(c if c.isprintable() else _escape(c) for c in path)


def concise_line(diag: Diagnostic) -> str:
    """The single-line form of one diagnostic (newlines in the message are flattened to spaces)."""
    message = " ".join(diag.message.split("\n"))
    return f"{printable_path(diag.path)}:{diag.span.line}:{diag.span.column}: {diag.code} {message}"


def render_concise(diagnostics: Sequence[Diagnostic]) -> str:
    if not diagnostics:
        return ""
    return "".join(f"{concise_line(diag)}\n" for diag in diagnostics)
