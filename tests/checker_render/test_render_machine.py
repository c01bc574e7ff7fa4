"""Machine formats: `json` exactly as SPEC §5, `concise`, `github` (with its escaping), the dispatcher."""

from __future__ import annotations

import json

import pytest
from render_fixtures import SOURCES, conflict, moved, unused_suppression

from ownership_check.diagnostics import Diagnostic, Label, Span
from ownership_check.render import FORMATS, render
from ownership_check.render.github import escape_data, escape_property

TOP_KEYS = ["version", "files_checked", "diagnostics"]
DIAG_KEYS = ["code", "severity", "message", "path", "line", "column", "end_line", "end_column"]
DIAG_KEYS += ["labels", "notes", "help"]
LABEL_KEYS = ["message", "line", "column", "end_line", "end_column", "primary"]


def _render(fmt: str, *diags: Diagnostic, files_checked: int = 2) -> str:
    return render(list(diags), fmt, sources=SOURCES, files_checked=files_checked)


def test_formats_are_the_spec_choices_with_text_first() -> None:
    assert FORMATS[:5] == ("text", "concise", "json", "sarif", "github")  # the contract's, in its order
    assert FORMATS[5:] == ("gitlab", "junit")  # added later, for GitLab Code Quality and JUnit dashboards


def test_unknown_format_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown output format 'xml'"):
        _render("xml", moved())


def test_json_keys_exactly_and_in_order() -> None:
    doc = json.loads(_render("json", moved(), conflict(), files_checked=7))
    assert list(doc) == TOP_KEYS
    assert doc["version"] == 1
    assert doc["files_checked"] == 7
    for item in doc["diagnostics"]:
        assert list(item) == DIAG_KEYS
        for label in item["labels"]:
            assert list(label) == LABEL_KEYS


def test_json_values() -> None:
    doc = json.loads(_render("json", moved(), unused_suppression()))
    first, second = doc["diagnostics"]
    assert second == {
        "code": "E0382",
        "severity": "error",
        "message": "use of moved value: `z`",
        "path": "host.py",
        "line": 6,
        "column": 5,
        "end_line": 6,
        "end_column": 6,
        "labels": [
            {
                "message": "value moved here",
                "line": 4,
                "column": 10,
                "end_line": 4,
                "end_column": 11,
                "primary": False,
            },
            {
                "message": "value used here after move",
                "line": 6,
                "column": 5,
                "end_line": 6,
                "end_column": 6,
                "primary": True,
            },
        ],
        "notes": [],
        "help": "use the values returned by `sync_on`",
    }
    # sorted by path: clean.py before host.py; an unlabeled primary span still appears as the primary label
    assert first["code"] == "W0001"
    assert first["severity"] == "warning"
    assert first["help"] is None
    assert first["labels"] == [
        {"message": "", "line": 1, "column": 3, "end_line": 1, "end_column": 30, "primary": True}
    ]


def test_json_clean_run() -> None:
    out = _render("json", files_checked=3)
    assert json.loads(out) == {"version": 1, "files_checked": 3, "diagnostics": []}
    assert out.endswith("}\n")


def test_json_keeps_paths_as_given() -> None:
    diag = Diagnostic("E0502", "m", "./pkg/../pkg/mod.py", Span(1, 1, 1, 2))
    assert json.loads(_render("json", diag))["diagnostics"][0]["path"] == "./pkg/../pkg/mod.py"


def test_concise_one_line_each() -> None:
    assert _render("concise", conflict(), moved()) == (
        "host.py:6:5: E0382 use of moved value: `z`\n"
        "kern.py:2:40: E0502 cannot borrow `c` as mutable because it is also borrowed as immutable\n"
    )
    assert _render("concise") == ""


def test_concise_flattens_newlines() -> None:
    diag = Diagnostic("E0001", "invalid syntax\nsecond", "a.py", Span(3, 4, 3, 5))
    assert _render("concise", diag) == "a.py:3:4: E0001 invalid syntax second\n"


def test_github_annotation() -> None:
    assert _render("github", moved()) == (
        "::error file=host.py,line=6,col=5,endLine=6,endColumn=6,title=E0382::"
        "use of moved value: `z`%0A4:10: value moved here%0Ahelp: use the values returned by `sync_on`\n"
    )


def test_github_warning_and_clean() -> None:
    assert _render("github", unused_suppression()).startswith("::warning file=clean.py,line=1,col=3,")
    assert _render("github") == ""


@pytest.mark.parametrize(
    ("raw", "data", "prop"),
    [
        ("plain", "plain", "plain"),
        ("100%", "100%25", "100%25"),
        ("a\nb", "a%0Ab", "a%0Ab"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("C:\\x,y.py", "C:\\x,y.py", "C%3A\\x%2Cy.py"),
        ("%0A", "%250A", "%250A"),
        ("::stop-commands::", "::stop-commands::", "%3A%3Astop-commands%3A%3A"),
    ],
)
def test_github_escaping(raw: str, data: str, prop: str) -> None:
    assert escape_data(raw) == data
    assert escape_property(raw) == prop


def test_github_escapes_paths_and_messages_in_annotations() -> None:
    diag = Diagnostic(
        "E0502",
        "cannot borrow `c` as mutable: 50% overlap\nsee view",
        "dir,with:odd/a.py",
        Span(1, 1, 1, 2),
        labels=(Label(Span(1, 1, 1, 2), "here", primary=True),),
    )
    line = _render("github", diag)
    assert line == (
        "::error file=dir%2Cwith%3Aodd/a.py,line=1,col=1,endLine=1,endColumn=2,title=E0502::"
        "cannot borrow `c` as mutable: 50%25 overlap%0Asee view\n"
    )
    assert line.count("\n") == 1
