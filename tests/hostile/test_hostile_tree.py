"""The checker over a tree of hostile files: 0 crashes, 0 tracebacks, 0 hangs, and the verdict each file earns.

Runs the real command in a subprocess with a timeout, so a native crash (libcst's parser) shows up as a signal
exit and a hang as a timeout, both failures; `--jobs 2` runs the same tree through worker processes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from hostile_corpus import HostileFile, build_tree


def _run(cwd: Path, *args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ownership_check", *args],
        cwd=cwd,
        capture_output=True,
        encoding="utf-8",  # strict: every format's output must be valid UTF-8, whatever the file names
        timeout=timeout,
        check=False,
    )


def _verdicts(stdout: str) -> dict[str, list[tuple[str, int]]]:
    found: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for diag in json.loads(stdout)["diagnostics"]:
        found[diag["path"]].append((diag["code"], diag["line"]))
    return found


def _mismatches(cases: list[HostileFile], found: dict[str, list[tuple[str, int]]]) -> list[str]:
    bad = []
    for case in cases:
        got = sorted(found.pop(f"tree/{case.name}", []), key=lambda d: d[1])
        codes = tuple(sorted(code for code, _ in got))
        if codes != case.codes or (case.line is not None and got and got[0][1] != case.line):
            bad.append(f"{case.name!r}: expected {case.codes} at line {case.line}, got {got}")
    bad.extend(f"{path!r}: unexpected {diags}" for path, diags in found.items())
    return bad


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_hostile_tree(tmp_path: Path, jobs: str) -> None:
    cases = build_tree(tmp_path / "tree", tmp_path / "outside")
    proc = _run(tmp_path, "tree", "--no-cache", "--format", "json", "--jobs", jobs)
    assert proc.returncode == 1, proc.stderr  # diagnostics, not a crash (negative) or an internal error (2)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert _mismatches(cases, _verdicts(proc.stdout)) == []
    assert json.loads(proc.stdout)["files_checked"] == len(cases)  # no FIFO, device, link out or dangling link


def test_hostile_tree_twice_through_the_cache_gives_the_same_answer(tmp_path: Path) -> None:
    cases = build_tree(tmp_path / "tree", tmp_path / "outside")
    first = _run(tmp_path, "tree", "--format", "json")
    second = _run(tmp_path, "tree", "--format", "json")
    assert first.returncode == second.returncode == 1, first.stderr + second.stderr
    assert first.stdout == second.stdout
    assert _mismatches(cases, _verdicts(second.stdout)) == []


@pytest.mark.parametrize("fmt", ["text", "concise", "github", "sarif"])
def test_every_format_renders_the_hostile_tree(tmp_path: Path, fmt: str) -> None:
    build_tree(tmp_path / "tree", tmp_path / "outside")
    proc = _run(tmp_path, "tree", "--no-cache", "--format", fmt)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    if fmt == "concise":  # one finding per line, even for file names with a newline, U+2028 or an escape
        assert all(line.startswith("tree/") for line in proc.stdout.splitlines()), proc.stdout[:2000]
        assert "\x1b" not in proc.stdout
    if fmt == "github":  # one workflow command per "\n"-line (GitHub's own escaping: %0A, %0D, %25)
        assert all(line.startswith("::") for line in proc.stdout.rstrip("\n").split("\n")), proc.stdout[:2000]
    if fmt == "text":
        assert max(len(line) for line in proc.stdout.splitlines()) < 1200  # a 300 KB line is not printed


def test_seeded_fuzz_batch_has_no_crash_traceback_or_hang() -> None:
    """A bounded, deterministic slice of the long run in docs/reliability.md (`checker_fuzz.py`)."""
    from checker_fuzz import run

    report = run(150, seed=20261201, batch=75, timeout=240)
    assert report.files == 150
    assert report.failures == []
    assert report.codes["W0002"] > 0 and report.codes["E0001"] > 0 and report.codes["E0502"] > 0
