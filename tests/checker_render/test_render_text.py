"""Golden renderings of the rustc-style `text` format, on hand-built diagnostics."""

from __future__ import annotations

import re

import pytest
from render_fixtures import SOURCES, conflict, in_loop, moved, no_source, unused_suppression

from ownership_check.diagnostics import Diagnostic, Label, Span
from ownership_check.render import render
from ownership_check.render.text import render_text, summary
from safekernels.project_links import error_index_url

#: Printed links are absolute (pip users have no docs/ folder): the project's documentation URL.
INDEX = error_index_url()


def _text(*diags: Diagnostic, files_checked: int = 1, color: bool = False) -> str:
    return render_text(list(diags), sources=SOURCES, files_checked=files_checked, color=color)


def test_move_across_lines_shows_the_one_line_gap() -> None:
    assert _text(moved()) == (
        "error[E0382]: use of moved value: `z`\n"
        " --> host.py:6:5\n"
        "  |\n"
        "4 | op = add(z, x, y)\n"
        "  |          - value moved here\n"
        "5 | w = 1\n"
        "6 | add(z, x, z)\n"
        "  |     ^ value used here after move\n"
        "  |\n"
        "  = help: use the values returned by `sync_on`\n"
        "\n"
        "Found 1 error in 1 file (checked 1 file)\n"
        f"For more information about this error, see {INDEX}#e0382\n"
    )


def test_three_labels_on_one_line_hang_like_rustc() -> None:
    assert _text(conflict(), files_checked=4) == (
        "error[E0502]: cannot borrow `c` as mutable because it is also borrowed as immutable\n"
        " --> kern.py:2:40\n"
        "  |\n"
        "2 |     vecadd.launch(launch, stream, c, b, c)\n"
        "  |     -------------                 -    ^ mutable borrow occurs here\n"
        "  |     |                             |\n"
        "  |     |                             immutable borrow occurs here\n"
        "  |     borrow later used by call\n"
        "  |\n"
        "  = note: `c` is the output `DisjointSlice` of `vecadd`\n"
        "  = note: second line\n"
        "          wrapped\n"
        "\n"
        "Found 1 error in 1 file (checked 4 files)\n"
        f"For more information about this error, see {INDEX}#e0502\n"
    )


def test_tabs_expand_and_labels_sort_by_line() -> None:
    assert _text(in_loop()).splitlines()[:7] == [
        "error[E0382]: use of moved value: `z`",
        " --> loop.py:3:7",
        "  |",
        "2 |     for _ in range(3):",
        "  |     ----------------- inside of this loop",
        "3 |         add(z)",
        "  |             ^ value moved here, in previous iteration of loop",
    ]


def test_long_gap_is_elided_and_gutter_widens() -> None:
    source = "".join(f"line{n}\n" for n in range(1, 13))
    diag = Diagnostic(
        "E0505",
        "cannot move out of `c` because it is borrowed",
        "gap.py",
        Span(11, 1, 11, 7),
        labels=(
            Label(Span(2, 1, 2, 6), "borrow of `c` occurs here"),
            Label(Span(11, 1, 11, 7), "move out of `c` occurs here", primary=True),
        ),
    )
    out = render_text([diag], sources={"gap.py": source}, files_checked=1)
    assert out.splitlines()[:8] == [
        "error[E0505]: cannot move out of `c` because it is borrowed",
        "  --> gap.py:11:1",
        "   |",
        " 2 | line2",
        "   | ----- borrow of `c` occurs here",
        "...",
        "11 | line11",
        "   | ^^^^^^ move out of `c` occurs here",
    ]


def test_multi_line_span_is_underlined_to_the_end_of_its_first_line() -> None:
    diag = Diagnostic("E0133", "m", "m.py", Span(1, 5, 2, 3))
    out = render_text([diag], sources={"m.py": "abc call(\n  x)\n"}, files_checked=1)
    assert "  |     ^^^^^\n" in out


def test_missing_source_still_names_the_place() -> None:
    assert _text(no_source()) == (
        "error[E0001]: invalid syntax\n"
        "  --> gone.py:12:1\n"
        "\n"
        "Found 1 error in 1 file (checked 1 file)\n"
        f"For more information about this error, see {INDEX}#e0001\n"
    )


def test_warning_header_and_unlabeled_primary() -> None:
    out = _text(unused_suppression())
    assert out.startswith(
        "warning[W0001]: unused suppression `# ownership: ignore[E0502]`\n"
        " --> clean.py:1:3\n"
        "  |\n"
        "1 | x = 1\n"
        "  |   ^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    )
    assert "Found 1 warning in 1 file (checked 1 file)" in out


@pytest.mark.parametrize(
    ("diags", "checked", "expected"),
    [
        ([], 3, "No problems found (checked 3 files)"),
        ([], 1, "No problems found (checked 1 file)"),
        ([moved(), conflict()], 2, "Found 2 errors in 2 files (checked 2 files)"),
        ([moved(), unused_suppression()], 5, "Found 1 error and 1 warning in 2 files (checked 5 files)"),
        ([unused_suppression(), unused_suppression()], 1, "Found 2 warnings in 1 file (checked 1 file)"),
    ],
)
def test_summary(diags: list[Diagnostic], checked: int, expected: str) -> None:
    assert summary(diags, checked) == expected


def test_clean_run_prints_only_the_summary() -> None:
    assert _text(files_checked=2) == "No problems found (checked 2 files)\n"


def test_several_codes_point_at_the_index() -> None:
    out = _text(moved(), conflict())
    assert out.endswith(f"For more information about these errors (E0382, E0502), see {INDEX}\n")


def test_color_only_when_asked() -> None:
    plain = _text(moved(), conflict())
    coloured = _text(moved(), conflict(), color=True)
    assert "\x1b[" not in plain
    assert "\x1b[1;31merror[E0382]\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_render_sorts_by_path_then_position() -> None:
    out = render([moved(), conflict(), no_source()], "text", sources=SOURCES, files_checked=3)
    headers = [line for line in out.splitlines() if line.startswith("error[")]
    assert [h.split(":")[0] for h in headers] == ["error[E0001]", "error[E0382]", "error[E0502]"]
