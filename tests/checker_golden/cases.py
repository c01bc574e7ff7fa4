"""The golden corpus's expectations, for any front end's test (the libcst CLI now, the mypy plugin later).

A case in `tests/checker_cases/` is a file `NAME.py` or a directory `NAME/` checked as one project.  Each
expected diagnostic is a trailing comment on its primary line:

    add(z, x, z)  # expect: E0382
    launch(p, stream, c, b, c)  # expect: E0502@col=43, W0001

An expectation is `(relative path, line, code, column or None)`; the column is part of it only where the
marker pins one (`@col=N`, 1-based).  Relative paths are the file name for a single-file case and the path
inside the directory (POSIX separators) for a directory case.  Expectations form a set, so one marker stands
for every diagnostic of that code on that line.

This module imports neither libcst nor mypy nor the checker: the mypy-plugin parity test imports it as is.
"""

from __future__ import annotations

import os
import re
import tokenize
from collections.abc import Iterable
from pathlib import Path
from typing import Final

#: `(relative path, line, code, pinned column or None)`.
Expectation = tuple[str, int, str, int | None]

CASES_DIR: Final[Path] = Path(__file__).resolve().parent.parent / "checker_cases"

_MARKER: Final[re.Pattern[str]] = re.compile(r"#\s*expect:\s*(?P<items>[^#]*)")
_ITEM: Final[re.Pattern[str]] = re.compile(r"^(?P<code>[A-Z]+[0-9]{4})(?:@col=(?P<col>[0-9]+))?$")


def discover_cases(root: Path = CASES_DIR) -> list[Path]:
    """Every case under `root`: `*.py` files and project directories, sorted by name."""
    found = [
        entry
        for entry in root.iterdir()
        if (entry.is_file() and entry.suffix == ".py")
        or (entry.is_dir() and not entry.name.startswith((".", "__")))
    ]
    return sorted(found, key=lambda p: p.name)


def case_name(case_path: Path) -> str:
    return case_path.stem if case_path.is_file() else case_path.name


def case_files(case_path: Path) -> list[Path]:
    """The Python files of a case (one for a file case, every `*.py` below a directory case)."""
    if case_path.is_file():
        return [case_path]
    return sorted(p for p in case_path.rglob("*.py") if "__pycache__" not in p.parts)


def relative_name(case_path: Path, file: Path) -> str:
    """How expectations name `file`: its name for a file case, its path inside the directory otherwise."""
    if case_path.is_file():
        return file.name
    return file.relative_to(case_path).as_posix()


def expected_text_path(case_path: Path) -> Path:
    """Where the exact `text` rendering of a case lives, if any: `NAME.expected.txt` beside the case."""
    return case_path.parent / f"{case_name(case_path)}.expected.txt"


def parse_markers(source: str) -> list[tuple[int, str, int | None]]:
    """`(line, code, column or None)` per `# expect:` item in `source`; malformed ones raise ValueError."""
    found: list[tuple[int, str, int | None]] = []
    for number, line in enumerate(source.splitlines(), start=1):
        match = _MARKER.search(line)
        if match is None:
            continue
        for raw in match.group("items").split(","):
            item = _ITEM.match(raw.strip())
            if item is None:
                raise ValueError(f"line {number}: malformed expectation {raw.strip()!r}")
            col = item.group("col")
            found.append((number, item.group("code"), int(col) if col is not None else None))
    return found


def read_case_source(file: Path) -> str:
    """A case file's text as Python decodes it (a case may declare a PEP 263 encoding, e.g. latin-1)."""
    with tokenize.open(file) as handle:
        return handle.read()


def load_expectations(case_path: Path) -> set[Expectation]:
    """Every expected diagnostic of the case at `case_path` (a `NAME.py` file or a `NAME/` directory)."""
    case_path = Path(case_path)
    expected: set[Expectation] = set()
    for file in case_files(case_path):
        name = relative_name(case_path, file)
        for line, code, col in parse_markers(read_case_source(file)):
            expected.add((name, line, code, col))
    return expected


def relative_reported_path(case_path: Path, reported: str, cwd: Path | None = None) -> str:
    """Map a path as the checker reported it (absolute, or relative to `cwd`) to the expectations' naming."""
    path = Path(reported)
    if not path.is_absolute():
        path = (cwd or Path.cwd()) / path
    path = Path(os.path.normpath(path))
    root = Path(os.path.normpath(case_path.resolve()))
    if case_path.is_file():
        return path.name
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def actual_expectations(
    case_path: Path,
    reported: Iterable[tuple[str, int, str, int]],
    expected: set[Expectation],
    cwd: Path | None = None,
) -> set[Expectation]:
    """Project reported `(path, line, code, column)` onto the expectation space of `expected`.

    A reported diagnostic keeps its column only where some marker pins a column for that path, line and code.
    """
    pinned = {(path, line, code) for path, line, code, col in expected if col is not None}
    actual: set[Expectation] = set()
    for path, line, code, column in reported:
        name = relative_reported_path(case_path, path, cwd)
        key = (name, line, code)
        actual.add((name, line, code, column if key in pinned else None))
    return actual


def format_expectations(items: Iterable[Expectation]) -> str:
    """A readable listing, one `path:line[:col]: CODE` per line, for assertion messages."""
    rows = sorted(items, key=lambda e: (e[0], e[1], e[2], e[3] or 0))
    return (
        "\n".join(f"  {p}:{line}{'' if c is None else f':{c}'}: {code}" for p, line, code, c in rows)
        or "  (none)"
    )
