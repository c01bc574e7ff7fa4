"""`ownership-check .` at the repository root (docs/checker.md's first example) checks the library, the examples and
the benchmarks, and none of the tests that misuse the API on purpose (issue 25 item 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ownership_check.config import load_config
from ownership_check.discovery import discover

REPO = Path(__file__).resolve().parents[2]


def test_the_repository_root_run_leaves_the_deliberately_wrong_tests_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    config = load_config(".")
    files = [display for _, display in discover(["."], config.exclude, config.root)]
    assert config.pyproject == str(REPO / "pyproject.toml")
    assert not [f for f in files if f.startswith(("tests/", "./tests/"))]
    assert any(f.startswith("src/safekernels/") for f in files)
    assert any(f.startswith("examples/") for f in files) and any(f.startswith("bench/") for f in files)


def test_the_project_passes_its_own_checker() -> None:
    """What a user sees running docs/checker.md's first example here: no diagnostic in the library, the examples or
    the benchmarks (a call of a safekernels helper returning host data, `read_regular(...) -> bytes`, is no device
    value: `raw.partition(b"\\n")` on it is not a move)."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "ownership_check", ".", "--no-cache", "--format", "concise"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
