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


def _ints(values: Any) -> list[int]:
    if not (isinstance(values, list) and len(values) == 4 and all(type(v) is int for v in values)):
        raise ValueError(f"not a span: {values!r:.80}")
    return values


def _check(data: dict[str, Any]) -> None:
    """Raise ValueError unless `data` has exactly the types `diagnostic_to_data` writes (cache records are
    validated, never trusted)."""
    strings = all(isinstance(data[k], str) for k in ("code", "message", "path", "severity"))
    notes = isinstance(data["notes"], list) and all(isinstance(n, str) for n in data["notes"])
    labels = isinstance(data["labels"], list) and all(
        isinstance(lb, list) and len(lb) == 3 and isinstance(lb[1], str) and isinstance(lb[2], bool)
        for lb in data["labels"]
    )
    if not (strings and notes and labels and (data["help"] is None or isinstance(data["help"], str))):
        raise ValueError("not a diagnostic record")
    _ints(data["span"])
    for lb in data["labels"]:
        _ints(lb[0])


def diagnostic_from_data(data: dict[str, Any]) -> Diagnostic:
    """The diagnostic `diagnostic_to_data` wrote; KeyError/TypeError/ValueError for anything else."""
    _check(data)
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
