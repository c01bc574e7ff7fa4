"""Parity: every golden case through mypy + the plugin and through the CLI gives the same diagnostics.

Compared: the set of `(path, line, column, code)` of ownership diagnostics (`E` codes) per case, and per line the
messages, notes and `help:` lines (the plugin prints secondary labels, notes and help as mypy notes at the error's
position, `reporting.notes_of`; mypy shows a note once per line, so they are compared as sets per line).  Where mypy
cannot express something, the case is pinned in `EXCEPTIONS` with the exact difference and the reason, and the same
list is in docs/editors.md ("Differences from the CLI").

Speed: all single-file cases go through one mypy run (module names are their distinct file names); each
directory case is its own project and its own run.  The mypy cache is shared by the session, so safekernels and
numpy are analyzed once.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cases import CASES_DIR, case_name, discover_cases, relative_reported_path
from mypy_harness import Reported, ownership_errors, run_mypy, write_config

from ownership_check.api import check_paths

Row = tuple[str, int, int, str]
#: A checker code as mypy prints it (`E0382`, `W0003`).
CHECKER_CODE = re.compile(r"^[EW]\d{4}$")
#: `(path, line, "error" | "note", text)`: what mypy prints for an ownership diagnostic, line by line.
Detail = tuple[str, int, str, str]

#: Cases whose mypy result differs from the CLI by design: name -> (reason, rows only the CLI reports).
#: (Empty since `DeviceBuffer.partition` exists: the two e0505 partition cases used to be pinned here because mypy
#: reported `[attr-defined]` for `c.partition(...)` and ran no hook; they now match the CLI.)
EXCEPTIONS: dict[str, tuple[str, frozenset[Row]]] = {}

#: Cases mypy cannot run at all (mypy stops at a syntax error before any plugin hook).
NOT_RUN: dict[str, str] = {
    "e0001_syntax_error": "mypy reports its own `[syntax]` error and stops before type checking (no hook runs)",
}

#: Codes only the CLI produces: `W0001` (unused suppression) needs the whole file's suppressions and results.
CLI_ONLY_CODES = frozenset({"W0001", "E0001"})

CASES = [c for c in discover_cases() if case_name(c) not in NOT_RUN]


def _cli_rows(case: Path) -> set[Row]:
    return {(path, line, column, code) for path, line, column, code in _cli_run(case)[0]}


def _cli_run(case: Path) -> tuple[set[Row], set[Detail]]:
    from mypy_plugin.reporting import notes_of

    result = check_paths([str(case)], use_cache=False)
    rows: set[Row] = set()
    details: set[Detail] = set()
    for d in result.diagnostics:
        if d.code in CLI_ONLY_CODES:
            continue
        path = relative_reported_path(case, d.path)
        rows.add((path, d.line, d.column, d.code))  # errors and warnings (W0003) alike: mypy prints both
        details.add((path, d.line, "error", d.message))
        details.update((path, d.line, "note", text) for text in notes_of(d))
    return rows, details


def _mypy_details(reported: list[Reported], name: Callable[[str], str]) -> dict[str, set[Detail]]:
    """Per file: the messages of every checker code (warnings included), and the notes printed on their lines."""
    errors = [r for r in reported if r.severity in ("error", "warning") and r.code and CHECKER_CODE.match(r.code)]
    lines = {(name(r.path), r.line) for r in errors}
    found: dict[str, set[Detail]] = {}
    for r in reported:
        key = (name(r.path), r.line)
        if r in errors or (r.severity == "note" and key in lines):
            found.setdefault(key[0], set()).add((key[0], r.line, "error" if r in errors else "note", r.message))
    return found


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


@pytest.fixture(scope="module")
def single_file_run(
    mypy_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, set[Row]], dict[str, set[Detail]]]:
    files = sorted(c.name for c in CASES if c.is_file())
    config = write_config(tmp_path_factory.mktemp("cfg"), mypy_cache)
    with _chdir(CASES_DIR):
        reported, raw = run_mypy(["--config-file", str(config), *files])
    assert "INTERNAL ERROR" not in raw, raw
    rows: dict[str, set[Row]] = {name: set() for name in files}
    for r in ownership_errors(reported):
        rows.setdefault(Path(r.path).name, set()).add((Path(r.path).name, r.line, r.column, r.code or ""))
    return rows, _mypy_details(reported, lambda path: Path(path).name)


@pytest.fixture(scope="module")
def single_file_results(
    single_file_run: tuple[dict[str, set[Row]], dict[str, set[Detail]]],
) -> dict[str, set[Row]]:
    return single_file_run[0]


class _chdir:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.old = ""

    def __enter__(self) -> None:
        self.old = os.getcwd()
        os.chdir(self.path)

    def __exit__(self, *exc: object) -> None:
        os.chdir(self.old)


def _directory_rows(case: Path, config: Path) -> tuple[set[Row], str, set[Detail]]:
    files = sorted(str(p.relative_to(case)) for p in case.rglob("*.py") if "__pycache__" not in p.parts)
    with _chdir(case):
        reported, raw = run_mypy(["--config-file", str(config), *files])
    assert "INTERNAL ERROR" not in raw, raw
    rows = {(Path(r.path).as_posix(), r.line, r.column, r.code or "") for r in ownership_errors(reported)}
    details = _mypy_details(reported, lambda path: Path(path).as_posix())
    return rows, raw, {d for found in details.values() for d in found}


def _ids() -> Iterator[str]:
    for case in CASES:
        yield case_name(case)


@pytest.mark.parametrize("case", CASES, ids=list(_ids()))
def test_mypy_matches_cli(
    case: Path,
    single_file_run: tuple[dict[str, set[Row]], dict[str, set[Detail]]],
    mypy_cache: Path,
    tmp_path: Path,
) -> None:
    cli, cli_details = _cli_run(case)
    if case.is_file():
        plugin = single_file_run[0].get(case.name, set())
        plugin_details = single_file_run[1].get(case.name, set())
        raw = ""
    else:
        # A private copy of the warm cache: directory cases reuse module names (`host`, `kernels`).
        cache = tmp_path / "cache"
        shutil.copytree(mypy_cache, cache)
        plugin, raw, plugin_details = _directory_rows(case, write_config(tmp_path, cache))
    name = case_name(case)
    if name in EXCEPTIONS:
        reason, only_cli = EXCEPTIONS[name]
        assert cli - plugin == set(only_cli), reason
        assert plugin - cli == set(), reason
        return
    assert plugin == cli, f"only CLI: {sorted(cli - plugin)}\nonly mypy: {sorted(plugin - cli)}\n{raw}"
    # the same messages, labels, notes and help (mypy 2.x once dropped the notes of a move inside a one-line
    # `zz, xx, yy = add(z, x, y).sync_on(stream)`)
    assert plugin_details == cli_details, (
        f"only CLI: {sorted(cli_details - plugin_details)}\nonly mypy: {sorted(plugin_details - cli_details)}\n{raw}"
    )
    if name.startswith("e0"):  # an error case: parity must not be two empty sets
        assert plugin, f"{name}: neither front end reported anything"


def test_exceptions_are_real_cases() -> None:
    names = {case_name(c) for c in discover_cases()}
    assert set(EXCEPTIONS) <= names
    assert set(NOT_RUN) <= names


def test_pass_cache_changes_nothing(
    single_file_results: dict[str, set[Row]], tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same corpus with the per-pass analysis reuse turned off gives the same diagnostics."""
    import sys

    from mypy_plugin.reporting import PASS_CACHE

    assert sys.modules["mypy_plugin.reporting"].PASS_CACHE is PASS_CACHE  # the instance mypy's plugin uses
    monkeypatch.setattr(PASS_CACHE, "enabled", False)
    files = sorted(c.name for c in CASES if c.is_file())
    config = write_config(tmp_path_factory.mktemp("cfg-nocache"), tmp_path_factory.mktemp("cache-nocache"))
    with _chdir(CASES_DIR):
        reported, raw = run_mypy(["--config-file", str(config), *files])
    rows: dict[str, set[Row]] = {name: set() for name in files}
    for r in ownership_errors(reported):
        rows.setdefault(Path(r.path).name, set()).add((Path(r.path).name, r.line, r.column, r.code or ""))
    assert rows == single_file_results, raw
