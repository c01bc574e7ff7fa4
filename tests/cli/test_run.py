"""`safekernels run` names the real reason it does not run a file (issue 25 item 6), and runs modules with -m."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BAD = """\
from safekernels import tile
from safekernels.tile import Partition, Tensor
from safekernels.dtypes import f32


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    x = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    add(z, x, z)
"""


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SAFEKERNELS_DEVICE": "cpu"}
    return subprocess.run(
        [sys.executable, "-m", "safekernels", "run", *args], cwd=cwd, capture_output=True, text=True, env=env
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "ok.py").write_text("import sys\nprint('ran', sys.argv[1:])\n")
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "job.py").write_text("import sys\nprint('module ran', sys.argv[1:])\n")
    (tmp_path / "pkg" / "bad.py").write_text(BAD)
    return tmp_path


def test_runs_a_clean_file_with_its_arguments(project: Path) -> None:
    proc = _run(["ok.py", "a", "--device", "x"], project)  # arguments after FILE are the script's
    assert proc.returncode == 0 and "ran ['a', '--device', 'x']" in proc.stdout


def test_refuses_a_file_with_ownership_errors(project: Path) -> None:
    proc = _run(["bad.py"], project)
    assert proc.returncode == 1 and "bad.py has ownership errors; not running it" in proc.stderr


def test_missing_file_is_named_as_missing(project: Path) -> None:
    proc = _run(["nope.py"], project)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "safekernels run: nope.py: no such file"


def test_bad_configuration_is_reported_as_such(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.ownership-check]\nselct = ['E']\n")
    proc = _run(["ok.py"], project)
    assert proc.returncode == 2 and "unknown option(s): selct" in proc.stderr
    assert "ownership errors" not in proc.stderr and "could not be checked" in proc.stderr
    assert "ran" not in proc.stdout


def test_dash_m_checks_and_runs_the_module(project: Path) -> None:
    proc = _run(["-m", "pkg.job", "z"], project)
    assert proc.returncode == 0 and "module ran ['z']" in proc.stdout
    bad = _run(["-m", "pkg.bad"], project)
    assert bad.returncode == 1 and "pkg/bad.py has ownership errors" in bad.stderr.replace(os.sep, "/")
    missing = _run(["-m", "pkg.nothing"], project)
    assert missing.returncode == 2 and "no module named 'pkg.nothing'" in missing.stderr
