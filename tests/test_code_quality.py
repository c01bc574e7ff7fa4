"""The project's own code stays `ruff`-clean and `mypy --strict`-clean (config in pyproject.toml).

These run the real tools over the tree, so a lint or typing regression fails CI like any other bug.  They are
skipped only where the tools are not installed (the GPU machine runs `pytest -m gpu` without them).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed")
def test_ruff_is_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "src", "mypy_plugin", "tests", "examples", "bench"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_mypy_strict_is_clean_on_our_packages() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental"],  # files and `strict = true` come from pyproject.toml
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
