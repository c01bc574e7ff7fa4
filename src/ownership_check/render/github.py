"""GitHub Actions workflow commands, so findings appear as annotations on the pull request's diff.

    ::error file=host.py,line=12,col=8,endLine=12,endColumn=9,title=E0382::use of moved value: `z`

GitHub's escaping rules (actions/toolkit `command.ts`): in the message, `%`, `\\r` and `\\n` become `%25`,
`%0D`, `%0A`; in property values additionally `:` and `,` become `%3A` and `%2C`.  Without this a path
containing a comma or a message containing `::` would silently break the annotation.  Any other unprintable
character (an ESC in a file name, U+2028, the stand-in for an undecodable byte) is written as `\\x1b`-style
text.  Labels and help follow the message on their own lines (escaped newlines), since an annotation has one
location.
"""

from __future__ import annotations

from collections.abc import Sequence

from ownership_check.diagnostics import Diagnostic, Severity
from ownership_check.render.concise import _escape


def _controls_escaped(text: str) -> str:
    """Every other unprintable character (ESC, U+2028, a lone surrogate from an undecodable file name) as
    `\\x1b`-style text: the runner's log is a terminal, and a file name must not drive it."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in "\r\n" else _escape(c) for c in text)


def escape_data(text: str) -> str:
    return _controls_escaped(text.replace("%", "%25")).replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(severity: Severity) -> str:
    return {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(severity, "notice")


def annotation(diag: Diagnostic) -> str:
    span = diag.span
    props = ",".join(
        f"{key}={escape_property(value)}"
        for key, value in (
            ("file", diag.path),  # control characters and undecodable bytes escaped: valid, inert UTF-8
            ("line", str(span.line)),
            ("col", str(span.column)),
            ("endLine", str(span.end_line)),
            ("endColumn", str(span.end_column)),
            ("title", diag.code),
        )
    )
    lines = [diag.message]
    for label in diag.related_labels():
        if label.message:
            lines.append(f"{label.span.line}:{label.span.column}: {label.message}")
    lines.extend(f"note: {note}" for note in diag.notes)
    if diag.help:
        lines.append(f"help: {diag.help}")
    return f"::{_command(diag.severity)} {props}::{escape_data(chr(10).join(lines))}"


def render_github(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(f"{annotation(diag)}\n" for diag in diagnostics)
