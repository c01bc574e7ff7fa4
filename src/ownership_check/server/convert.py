"""Checker diagnostics and fixes as LSP objects (ranges in the client's position encoding).

The checker counts columns in characters from 1; LSP counts from 0 in the negotiated unit (UTF-16 unless the
client offers another), so every range goes through the document's position codec.  Secondary labels
("value moved here", "immutable borrow occurs here") become `relatedInformation`, as do notes and the `help:`
line, each at the primary span; `codeDescription` links the code's section of the error index.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace import TextDocument

from ownership_check.diagnostics import Diagnostic, Severity, Span
from ownership_check.fixes import Fix
from safekernels.project_links import error_index_url

SOURCE = "ownership-check"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.NOTE: types.DiagnosticSeverity.Information,
}


def to_range(doc: TextDocument, span: Span) -> types.Range:
    lines = doc.lines
    start = types.Position(max(span.line - 1, 0), max(span.column - 1, 0))
    end = types.Position(max(span.end_line - 1, 0), max(span.end_column - 1, 0))
    if start.line >= len(lines):
        start = types.Position(len(lines), 0)
    if end.line >= len(lines):
        end = types.Position(len(lines), 0)
    codec = doc.position_codec
    return types.Range(codec.position_to_client_units(lines, start), codec.position_to_client_units(lines, end))


def to_lsp(doc: TextDocument, diag: Diagnostic) -> types.Diagnostic:
    primary = to_range(doc, diag.span)
    here = types.Location(doc.uri, primary)
    related = [
        types.DiagnosticRelatedInformation(types.Location(doc.uri, to_range(doc, lb.span)), lb.message)
        for lb in diag.related_labels()
        if lb.message
    ]
    related += [types.DiagnosticRelatedInformation(here, f"note: {note}") for note in diag.notes]
    if diag.help:
        related.append(types.DiagnosticRelatedInformation(here, f"help: {diag.help}"))
    return types.Diagnostic(
        range=primary,
        message=diag.message,
        severity=_SEVERITY.get(diag.severity, types.DiagnosticSeverity.Error),
        code=diag.code,
        code_description=types.CodeDescription(href=error_index_url(diag.code)),
        source=SOURCE,
        related_information=related or None,
        data={"line": diag.span.line, "column": diag.span.column, "code": diag.code},
    )


def line_edit(doc: TextDocument, old: str, new: str) -> types.TextEdit:
    """One edit replacing the lines that differ between `old` and `new` (the rest of the buffer is untouched)."""
    old_lines = old.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    prefix = 0
    while prefix < min(len(old_lines), len(new_lines)) and old_lines[prefix] == new_lines[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(old_lines), len(new_lines)) - prefix
        and old_lines[-1 - suffix] == new_lines[-1 - suffix]
    ):
        suffix += 1
    end_line = len(old_lines) - suffix
    replacement = "".join(new_lines[prefix : len(new_lines) - suffix])
    if suffix == 0 and old_lines and not old_lines[-1].endswith("\n"):
        last = old_lines[-1]
        end = types.Position(len(old_lines) - 1, doc.position_codec.client_num_units(last))
    else:
        end = types.Position(end_line, 0)
    return types.TextEdit(types.Range(types.Position(prefix, 0), end), replacement)


def code_action(doc: TextDocument, fix: Fix, source: str, diagnostics: Sequence[types.Diagnostic]) -> types.CodeAction:
    return types.CodeAction(
        title=fix.title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=list(diagnostics),
        is_preferred=fix.kind in ("fresh-output", "shared-input"),
        edit=types.WorkspaceEdit(changes={doc.uri: [line_edit(doc, source, fix.new_source)]}),
    )
