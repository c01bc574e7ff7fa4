"""GitHub Actions workflow commands, so findings appear as annotations on the pull request's diff.

    ::error file=host.py,line=12,col=8,endLine=12,endColumn=9,title=E0382::use of moved value: `z`

GitHub's escaping rules (actions/toolkit `command.ts`): in the message, `%`, `\\r` and `\\n` become `%25`,
`%0D`, `%0A`; in property values additionally `:` and `,` become `%3A` and `%2C`.  Without this a path
containing a comma or a message containing `::` would silently break the annotation.  Labels and help follow
the message on their own lines (escaped newlines), since an annotation has one location.
"""

from __future__ import annotations

from collections.abc import Sequence

from ownership_check.diagnostics import Diagnostic, Severity


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(severity: Severity) -> str:
    return {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(severity, "notice")


def annotation(diag: Diagnostic) -> str:
    span = diag.span
    props = ",".join(
        f"{key}={escape_property(value)}"
        for key, value in (
            ("file", diag.path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")),  # valid UTF-8
            ("line", str(span.line)),
            ("col", str(span.column)),
            ("endLine", str(span.end_line)),
            ("endColumn", str(span.end_column)),
            ("title", diag.code),
        )
    )
    lines = [diag.message]
    for label in diag.labels:
        if not label.primary and label.message:
            lines.append(f"{label.span.line}:{label.span.column}: {label.message}")
    lines.extend(f"note: {note}" for note in diag.notes)
    if diag.help:
        lines.append(f"help: {diag.help}")
    return f"::{_command(diag.severity)} {props}::{escape_data(chr(10).join(lines))}"


def render_github(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(f"{annotation(diag)}\n" for diag in diagnostics)
