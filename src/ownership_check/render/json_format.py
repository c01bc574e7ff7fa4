"""The machine format of docs/checker.md ("Output formats"), key for key: outside tools parse it, so nothing
here is free to change.

    {"version": 1, "files_checked": N, "diagnostics": [{"code", "severity", "message", "path", "line",
     "column", "end_line", "end_column", "labels": [{"message", "line", "column", "end_line", "end_column",
     "primary"}], "notes": [...], "help": str | null}]}

Lines and columns are 1-based; `end_column` is one past the last character (the model's half-open span).
`labels` always contains the primary label (with an empty message when the producer gave none), followed by
the secondary labels in the producer's order.  The module is `json_format`, not `json`, so it never shadows
the standard library.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Final

from ownership_check.diagnostics import Diagnostic, Label

#: Bumped only for incompatible changes of the shape above.
JSON_SCHEMA_VERSION: Final[int] = 1


def _label(label: Label) -> dict[str, Any]:
    span = label.span
    return {
        "message": label.message,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        "primary": label.primary,
    }


def diagnostic_to_json(diag: Diagnostic) -> dict[str, Any]:
    span = diag.span
    return {
        "code": diag.code,
        "severity": diag.severity.value,
        "message": diag.message,
        "path": diag.path,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        "labels": [_label(label) for label in diag.all_labels()],
        "notes": list(diag.notes),
        "help": diag.help,
    }


def json_document(diagnostics: Sequence[Diagnostic], files_checked: int) -> dict[str, Any]:
    return {
        "version": JSON_SCHEMA_VERSION,
        "files_checked": files_checked,
        "diagnostics": [diagnostic_to_json(diag) for diag in diagnostics],
    }


def render_json(diagnostics: Sequence[Diagnostic], *, files_checked: int) -> str:
    return dumps_utf8(json_document(diagnostics, files_checked))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps_utf8(document: object) -> str:
    """JSON text that encodes as UTF-8: non-ASCII kept, but the lone surrogates Python uses for undecodable bytes
    of file names become `\\udcXX` escapes (valid JSON; writing them raw would make the output invalid UTF-8)."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"
