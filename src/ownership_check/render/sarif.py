"""SARIF 2.1.0, the format GitHub code scanning (and most CI dashboards) ingest.

One run, tool driver `ownership-check`, one `rules` entry per code that occurs (with short and full
descriptions and an absolute `helpUri` into the error index, `https://.../docs/checker.md#e0382`), one `result`
per diagnostic.
The primary span is the result's location; every other label becomes a `relatedLocations` entry with its
message ("value moved here"), which code scanning shows next to the alert.  Notes and help go into the
result's property bag and, for readers of the plain message, after the message text.  Columns are counted in
Unicode code points, as the checker counts them, and the run says so (`columnKind`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any, Final
from urllib.parse import quote

from ownership_check.diagnostics import Diagnostic, Severity, Span
from ownership_check.render.catalog import code_info, docs_anchor, docs_index
from ownership_check.render.json_format import dumps_utf8

SARIF_SCHEMA: Final[str] = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION: Final[str] = "2.1.0"
TOOL_NAME: Final[str] = "ownership-check"


def _tool_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("safekernels")
    except metadata.PackageNotFoundError:
        return "0"


def artifact_uri(path: str) -> str:
    """A URI reference for `path`; relative paths stay relative (code scanning resolves them in the repo)."""
    posix = path.replace("\\", "/")
    if PurePosixPath(posix).is_absolute():
        return "file://" + quote(posix.encode("utf-8", "surrogateescape"), safe="/")
    return quote(posix.encode("utf-8", "surrogateescape"), safe="/")  # raw bytes of odd names: %XX


def _level(severity: Severity) -> str:
    return {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(severity, "note")


def _region(span: Span) -> dict[str, int]:
    return {
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
    }


def _physical(path: str, span: Span) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": artifact_uri(path)}, "region": _region(span)}}


def _rule(code: str, level: str) -> dict[str, Any]:
    info = code_info(code)
    return {
        "id": code,
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": info.explanation},
        "helpUri": docs_anchor(code),
        "help": {"text": f"{info.summary} See {docs_anchor(code)}."},
        "defaultConfiguration": {"level": level},
    }


def _result(diag: Diagnostic, rule_index: int) -> dict[str, Any]:
    text = diag.message
    extra = [*(f"note: {note}" for note in diag.notes), *([f"help: {diag.help}"] if diag.help else [])]
    if extra:
        text = "\n".join([text, *extra])
    result: dict[str, Any] = {
        "ruleId": diag.code,
        "ruleIndex": rule_index,
        "level": _level(diag.severity),
        "message": {"text": text},
        "locations": [_physical(diag.path, diag.span)],
    }
    related: list[dict[str, Any]] = []
    for label in diag.related_labels():
        entry: dict[str, Any] = {"id": len(related), **_physical(diag.path, label.span)}
        if label.message:
            entry["message"] = {"text": label.message}
        related.append(entry)
    if related:
        result["relatedLocations"] = related
    if diag.notes or diag.help:
        result["properties"] = {"notes": list(diag.notes), "help": diag.help}
    return result


def sarif_document(diagnostics: Sequence[Diagnostic]) -> dict[str, Any]:
    rule_index: dict[str, int] = {}
    rules: list[dict[str, Any]] = []
    for diag in diagnostics:
        if diag.code not in rule_index:
            rule_index[diag.code] = len(rules)
            rules.append(_rule(diag.code, _level(diag.severity)))
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": _tool_version(),
                        "informationUri": docs_index(),
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": [_result(diag, rule_index[diag.code]) for diag in diagnostics],
            }
        ],
    }


def render_sarif(diagnostics: Sequence[Diagnostic]) -> str:
    return dumps_utf8(sarif_document(diagnostics))
