"""Diagnostics as plain JSON-able data, for the on-disk cache (the renderers have their own JSON format)."""

from __future__ import annotations

from typing import Any

from ownership_check.diagnostics import Diagnostic, Label, Severity, Span


def _span(s: Span) -> list[int]:
    return [s.line, s.column, s.end_line, s.end_column]


def diagnostic_to_data(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code,
        "message": d.message,
        "path": d.path,
        "span": _span(d.span),
        "severity": d.severity.value,
        "labels": [[_span(lb.span), lb.message, lb.primary] for lb in d.labels],
        "notes": list(d.notes),
        "help": d.help,
    }


def diagnostic_from_data(data: dict[str, Any]) -> Diagnostic:
    return Diagnostic(
        code=data["code"],
        message=data["message"],
        path=data["path"],
        span=Span(*data["span"]),
        severity=Severity(data["severity"]),
        labels=tuple(Label(Span(*sp), msg, bool(primary)) for sp, msg, primary in data["labels"]),
        notes=tuple(data["notes"]),
        help=data["help"],
    )
