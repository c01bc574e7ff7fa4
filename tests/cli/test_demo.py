"""`safekernels demo`: runs the examples that ship with safekernels, and fails loudly when there are none."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from safekernels import cli


def test_an_empty_examples_folder_is_an_error_that_says_nothing_ran(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "safekernels", "demo", "--examples", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "no examples found" in proc.stderr and "nothing ran" in proc.stderr


def test_the_default_folder_is_the_bundled_copy_when_there_is_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli._examples_dir() == cli._CHECKOUT_EXAMPLES  # a checkout: no bundled copy next to the package
    bundled = tmp_path / "_bundled" / "examples"
    bundled.mkdir(parents=True)
    monkeypatch.setattr(cli, "_BUNDLED_EXAMPLES", bundled)
    assert cli._examples_dir() == bundled


def test_a_failing_example_fails_the_demo(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("raise SystemExit('no PASSED here')\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "safekernels", "demo", "--examples", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SAFEKERNELS_DEVICE": "cpu"},
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "broken.py" in proc.stdout and "FAILED" in proc.stdout
