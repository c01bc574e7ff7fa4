"""The human format: rustc's diagnostic window, for terminals and for reading in CI logs.

Each diagnostic becomes

    error[E0382]: use of moved value: `z`
      --> host.py:12:8
       |
    10 | op = add(z, x, y)
       |          - value moved here
    11 | z2 = op
    12 | add(z, x, z)
       |     ^ value used here after move
       |
       = help: use the values returned by `sync_on`

All labels of one diagnostic share one window, sorted by line; a gap of one line shows that line, a longer
gap shows `...`.  Several labels on one line are drawn the way rustc draws them: every underline on one row,
the rightmost label's message after it, the others hanging below on `|` connectors.  A span running over
several lines is underlined on its first line only (to the end of that line).  Tabs are expanded to four
columns.

Colour is plain ANSI escapes, emitted only when asked for (`color=True`); without colour the output is
byte-stable, which is what the golden `NAME.expected.txt` renderings pin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ownership_check.diagnostics import Diagnostic, Label, Severity
from ownership_check.render.catalog import docs_anchor, docs_index
from ownership_check.render.concise import printable_path

#: Source rows are cut after this many characters (a diagnostic about a 1 MB line must not print it).
MAX_SHOWN_CHARS: Final = 1000

#: Control characters in a source row are shown as their Unicode control pictures (ESC as U+241B, as rustc
#: does), one column each, so a checked file cannot send escape sequences to the terminal and carets stay aligned.
_CONTROL_PICTURES: Final = {code: 0x2400 + code for code in range(32) if code != 9} | {127: 0x2421}

_TAB: Final[str] = "    "

_RESET: Final[str] = "\x1b[0m"
_STYLES: Final[dict[str, str]] = {
    "error": "\x1b[1;31m",
    "warning": "\x1b[1;33m",
    "note": "\x1b[1;32m",
    "help": "\x1b[1;36m",
    "gutter": "\x1b[1;34m",
    "secondary": "\x1b[1;34m",
    "bold": "\x1b[1m",
}


@dataclass(frozen=True)
class _Painter:
    """Wraps text in ANSI styles when colour is on; the identity otherwise."""

    color: bool

    def __call__(self, text: str, style: str | None) -> str:
        if not self.color or style is None or not text:
            return text
        return f"{_STYLES[style]}{text}{_RESET}"


class _Row:
    """One annotation row under a source line: a grid of characters, each with an optional style."""

    def __init__(self) -> None:
        self.cells: list[tuple[str, str | None]] = []

    def put(self, column: int, text: str, style: str | None) -> None:
        while len(self.cells) < column + len(text):
            self.cells.append((" ", None))
        for offset, char in enumerate(text):
            self.cells[column + offset] = (char, style)

    def render(self, paint: _Painter) -> str:
        out: list[str] = []
        run = ""
        run_style: str | None = None
        for char, style in self.cells:
            if style != run_style and run:
                out.append(paint(run, run_style))
                run = ""
            run_style = style
            run += char
        if run:
            out.append(paint(run, run_style))
        return "".join(out).rstrip()


@dataclass(frozen=True)
class _Mark:
    """A label placed on one displayed line: display columns [start, end) and how to draw it."""

    start: int
    end: int
    label: Label

    @property
    def char(self) -> str:
        return "^" if self.label.primary else "-"


def _expand(text: str) -> str:
    return text.replace("\t", _TAB)


def _display_column(line_text: str, column: int) -> int:
    """0-based display offset of 1-based character column `column` (tabs expanded)."""
    index = max(column - 1, 0)
    return len(_expand(line_text[:index])) + max(index - len(line_text), 0)


def _severity_style(severity: Severity) -> str:
    return {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(severity, "note")


class _TextRenderer:
    def __init__(self, sources: Mapping[str, str], paint: _Painter) -> None:
        self._sources = sources
        self._lines: dict[str, list[str]] = {}
        self._paint = paint

    def _source_lines(self, path: str) -> list[str] | None:
        if path not in self._lines:
            text = self._sources.get(path)
            if text is None:
                return None
            self._lines[path] = text.split("\n")  # Python's line breaks only (not \f, \x1c or U+2028)
        return self._lines[path]

    def diagnostic(self, diag: Diagnostic) -> list[str]:
        paint = self._paint
        sev_style = _severity_style(diag.severity)
        out = [
            paint(f"{diag.severity.value}[{diag.code}]", sev_style) + paint(f": {diag.message}", "bold"),
        ]
        lines = self._source_lines(diag.path)
        marks_by_line: dict[int, list[_Mark]] = {}
        if lines is not None:
            for label in diag.all_labels():
                mark = self._mark(label, lines)
                if mark is not None:
                    marks_by_line.setdefault(label.span.line, []).append(mark)
        shown = sorted(marks_by_line)
        width = len(str(max([diag.span.line, *shown])))
        gutter = " " * (width + 1)
        bar = paint("|", "gutter")
        where = f"{printable_path(diag.path)}:{diag.span.line}:{diag.span.column}"
        out.append(f"{' ' * width}{paint('-->', 'gutter')} {where}")
        if shown and lines is not None:
            out.append(f"{gutter}{bar}")
            previous: int | None = None
            for number in shown:
                if previous is not None and number - previous == 2:
                    out.append(self._source_row(number - 1, lines, width))
                elif previous is not None and number - previous > 2:
                    out.append(paint("...", "gutter"))
                out.append(self._source_row(number, lines, width))
                for row in self._annotation_rows(marks_by_line[number], sev_style):
                    out.append(f"{gutter}{bar} {row}".rstrip())
                previous = number
        if diag.notes or diag.help:
            out.append(f"{gutter}{bar}")
            for note in diag.notes:
                out.extend(self._footer(gutter, "note", note))
            if diag.help:
                out.extend(self._footer(gutter, "help", diag.help))
        return out

    def _footer(self, gutter: str, kind: str, text: str) -> list[str]:
        head = f"{gutter}{self._paint('=', 'gutter')} {self._paint(kind, 'bold')}: "
        indent = " " * (len(gutter) + len(kind) + 4)
        first, *rest = text.splitlines() or [""]
        return [f"{head}{first}".rstrip(), *(f"{indent}{line}".rstrip() for line in rest)]

    def _source_row(self, number: int, lines: list[str], width: int) -> str:
        text = _expand(lines[number - 1][:MAX_SHOWN_CHARS]).rstrip().translate(_CONTROL_PICTURES)
        prefix = self._paint(f"{number:>{width}} |", "gutter")
        return f"{prefix} {text}" if text else prefix

    @staticmethod
    def _mark(label: Label, lines: list[str]) -> _Mark | None:
        span = label.span
        if not 1 <= span.line <= len(lines):
            return None
        text = lines[span.line - 1][:MAX_SHOWN_CHARS]
        if span.column > MAX_SHOWN_CHARS:
            return None  # past the part of the line that is shown; the `-->` line still has the column
        start = _display_column(text, span.column)
        if span.end_line == span.line:
            end = _display_column(text, min(span.end_column, MAX_SHOWN_CHARS + 1))
        else:
            end = len(_expand(text))
        return _Mark(start, max(end, start + 1), label)

    def _annotation_rows(self, marks: list[_Mark], sev_style: str) -> list[str]:
        def style(mark: _Mark) -> str:
            return sev_style if mark.label.primary else "secondary"

        ordered = sorted(marks, key=lambda m: (m.start, m.label.primary, m.end))
        underline = _Row()
        for mark in sorted(ordered, key=lambda m: m.label.primary):  # primary carets drawn last, on top
            underline.put(mark.start, mark.char * (mark.end - mark.start), style(mark))
        last = ordered[-1]
        if last.label.message:
            underline.put(len(underline.cells) + 1, last.label.message, style(last))
        rows = [underline]
        hanging = [mark for mark in ordered[:-1] if mark.label.message]
        if hanging:
            connectors = _Row()
            for mark in hanging:
                connectors.put(mark.start, "|", style(mark))
            rows.append(connectors)
            for index in range(len(hanging) - 1, -1, -1):
                row = _Row()
                for mark in hanging[:index]:
                    row.put(mark.start, "|", style(mark))
                mark = hanging[index]
                row.put(mark.start, mark.label.message, style(mark))
                rows.append(row)
        return [row.render(self._paint) for row in rows]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def summary(diagnostics: Sequence[Diagnostic], files_checked: int) -> str:
    """The closing line: how many errors and warnings, in how many files, out of how many checked."""
    checked = f"checked {_plural(files_checked, 'file')}"
    if not diagnostics:
        return f"No problems found ({checked})"
    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    warnings = sum(1 for d in diagnostics if d.severity is Severity.WARNING)
    parts = [_plural(errors, "error")] if errors or not warnings else []
    if warnings:
        parts.append(_plural(warnings, "warning"))
    files = len({d.path for d in diagnostics})
    return f"Found {' and '.join(parts)} in {_plural(files, 'file')} ({checked})"


def _explain_footer(diagnostics: Sequence[Diagnostic]) -> str | None:
    codes = sorted({d.code for d in diagnostics})
    if not codes:
        return None
    if len(codes) == 1:
        return f"For more information about this error, see {docs_anchor(codes[0])}"
    return f"For more information about these errors ({', '.join(codes)}), see {docs_index()}"


def render_text(
    diagnostics: Sequence[Diagnostic],
    *,
    sources: Mapping[str, str],
    files_checked: int,
    color: bool = False,
) -> str:
    """Render `diagnostics` in order, each followed by a blank line, then the summary and the docs pointer."""
    paint = _Painter(color)
    renderer = _TextRenderer(sources, paint)
    out: list[str] = []
    for diag in diagnostics:
        out.extend(renderer.diagnostic(diag))
        out.append("")
    out.append(paint(summary(diagnostics, files_checked), "bold"))
    footer = _explain_footer(diagnostics)
    if footer is not None:
        out.append(footer)
    return "\n".join(out) + "\n"
