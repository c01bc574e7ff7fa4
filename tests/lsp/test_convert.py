"""Checker spans (1-based lines, character columns) to LSP ranges (0-based, UTF-16 code units by default)."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import TextDocument

from ownership_check.diagnostics import Diagnostic, Label, Span
from ownership_check.server.convert import line_edit, to_lsp, to_range


def test_columns_after_characters_outside_the_basic_plane_count_utf16_units() -> None:
    doc = TextDocument("file:///t.py", 'x = "😀é"; f(c, c)\n')
    # character column 15 (1-based) is 14 characters in: 15 UTF-16 units, the emoji being two
    assert to_range(doc, Span(1, 15, 1, 16)) == types.Range(types.Position(0, 15), types.Position(0, 16))


def test_labels_notes_and_help_become_related_information() -> None:
    doc = TextDocument("file:///t.py", "f(c, c)\n")
    diag = Diagnostic(
        "E0502",
        "cannot borrow `c` as mutable because it is also borrowed as immutable",
        "t.py",
        Span(1, 6, 1, 7),
        labels=(Label(Span(1, 3, 1, 4), "immutable borrow occurs here"), Label(Span(1, 6, 1, 7), "m", True)),
        notes=("a note",),
        help="a help",
    )
    got = to_lsp(doc, diag)
    assert got.code == "E0502" and got.source == "ownership-check"
    assert [(r.message, r.location.range.start.character) for r in got.related_information or []] == [
        ("immutable borrow occurs here", 2),
        ("note: a note", 5),
        ("help: a help", 5),
    ]


def test_line_edit_touches_only_the_lines_that_differ() -> None:
    old = "a\nb\nc\n"
    doc = TextDocument("file:///t.py", old)
    edit = line_edit(doc, old, "a\nB\nb2\nc\n")
    assert edit.range == types.Range(types.Position(1, 0), types.Position(2, 0))
    assert edit.new_text == "B\nb2\n"
    no_newline = "a\nb"
    edit = line_edit(TextDocument("file:///t.py", no_newline), no_newline, "a\nb\nc\n")
    assert edit.range == types.Range(types.Position(1, 0), types.Position(1, 1))
    assert edit.new_text == "b\nc\n"
