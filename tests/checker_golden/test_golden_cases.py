"""Run the checker over every golden case; compare with its `# expect:` markers (and text renderings).

Each case is copied into a temporary directory and checked from there by its relative name, so the
repository's own `[tool.ownership-check]` config (which excludes `tests/checker_cases`) cannot hide it and
rendered paths are short and machine-independent.  Set `OWNERSHIP_GOLDEN_UPDATE=1` to (re)write
`NAME.expected.txt` files for cases that already have one; review the diff by eye before keeping it.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
from cases import (
    actual_expectations,
    case_name,
    discover_cases,
    expected_text_path,
    format_expectations,
    load_expectations,
)

from ownership_check.api import RunResult, check_paths

CASES = discover_cases()
TEXT_CASES = [case for case in CASES if expected_text_path(case).exists()]


def _check(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RunResult:
    target = tmp_path / case.name
    if case.is_dir():
        shutil.copytree(case, target, ignore=shutil.ignore_patterns("__pycache__"))
    else:
        shutil.copy2(case, target)
    monkeypatch.chdir(tmp_path)
    result = check_paths([case.name], use_cache=False)
    # Every case, clean ones included, must be analysed: an analyzer that fails on a file reports nothing
    # for it, which a clean case's empty expectations would otherwise accept.
    assert result.internal_errors == [], "\n".join(result.internal_errors)
    assert result.errors == [], "\n".join(result.errors)
    return result


@pytest.mark.parametrize("case", CASES, ids=case_name)
def test_case_reports_exactly_its_markers(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = _check(case, tmp_path, monkeypatch)
    assert result.files_checked >= 1, f"{case.name}: no file was checked"
    expected = load_expectations(case)
    reported = [(d.path, d.span.line, d.code, d.span.column) for d in result.diagnostics]
    actual = actual_expectations(tmp_path / case.name, reported, expected, cwd=tmp_path)
    missing, unexpected = expected - actual, actual - expected
    assert not missing and not unexpected, (
        f"{case.name}\nmissing (expected, not reported):\n{format_expectations(missing)}\n"
        f"unexpected (reported, not expected):\n{format_expectations(unexpected)}"
    )
    # one message once per span (two calls of one function conflicting inside it, on different values, are two
    # messages at the launch inside it, each labelled with its own call)
    spans = Counter((d.path, d.span, d.code, d.message) for d in result.diagnostics)
    assert [key for key, count in spans.items() if count > 1] == [], "a diagnostic was reported twice"


@pytest.mark.parametrize("case", TEXT_CASES, ids=case_name)
def test_case_text_rendering(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ownership_check.render import render

    result = _check(case, tmp_path, monkeypatch)
    text = render(result.diagnostics, "text", sources=result.sources, files_checked=result.files_checked)
    golden = expected_text_path(case)
    if os.environ.get("OWNERSHIP_GOLDEN_UPDATE") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")
