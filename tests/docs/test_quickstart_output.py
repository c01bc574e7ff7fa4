"""The quickstart's sample outputs are what the tools print, for the program the page builds (`first.py`).

The page shows the checker's rustc-style report and mypy's lines for `first.py` plus the E0502 line of section 3;
both are regenerated here and compared line by line, so the page cannot drift from the real output.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "quickstart.md"


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def _first_py_with_the_bug() -> str:
    first, bug = re.findall(r"```python\n(.*?)```", _page(), re.DOTALL)[:2]
    return first + bug


def _text_block_after(marker: str) -> list[str]:
    rest = _page().split(marker, 1)[1]
    match = re.search(r"```text\n(.*?)```", rest, re.DOTALL)
    assert match, f"no text block after {marker!r}"
    return match.group(1).rstrip("\n").splitlines()


def test_the_checker_report_on_the_page_is_the_real_one(tmp_path: Path) -> None:
    (tmp_path / "first.py").write_text(_first_py_with_the_bug(), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "ownership_check", "first.py", "--no-cache"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.rstrip("\n").splitlines() == _text_block_after("The checker answers before anything runs")


def test_the_mypy_lines_on_the_page_are_the_real_ones(tmp_path: Path) -> None:
    (tmp_path / "first.py").write_text(_first_py_with_the_bug(), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mypy]\nplugins = ["mypy_plugin"]\ncheck_untyped_defs = true\n'
        f"mypy_path = {json.dumps(str(REPO / 'src'))}\n"  # this checkout's sources, whatever the install mode
        '[[tool.mypy.overrides]]\nmodule = ["safekernels.*", "ownership_check.*", "llvmlite.*", '
        '"cuda.*"]\nfollow_imports = "silent"\nignore_missing_imports = true\n',
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "first.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.rstrip("\n").splitlines() == _text_block_after("check from the terminal that it works")


def test_the_run_output_on_the_page_is_the_real_one(tmp_path: Path) -> None:
    first = re.findall(r"```python\n(.*?)```", _page(), re.DOTALL)[0]
    (tmp_path / "first.py").write_text(first, encoding="utf-8")
    env = dict(os.environ, SAFEKERNELS_DEVICE="cpu", SAFEKERNELS_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run(
        [sys.executable, "-m", "safekernels", "run", "first.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.rstrip("\n").splitlines() == _text_block_after("safekernels run first.py\n```")
