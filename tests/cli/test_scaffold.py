"""`safekernels new` creates a project whose test passes and which the checker accepts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from safekernels import scaffold
from safekernels.scaffold import create_project


@pytest.mark.parametrize("track", ["simt", "tile"])
def test_new_project_runs_its_test_and_passes_the_checker(tmp_path: Path, track: str) -> None:
    project = tmp_path / f"demo-{track}"
    proc = subprocess.run(
        [sys.executable, "-m", "safekernels", "new", str(project), "--track", track],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (project / ".pre-commit-config.yaml").read_text().count("ownership-check") >= 2
    assert 'plugins = ["mypy_plugin"]' in (project / "pyproject.toml").read_text()
    env = dict(os.environ, PYTHONPATH=str(project / "src"))
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(project / "tests")],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    check = subprocess.run(
        [sys.executable, "-m", "ownership_check", "src", "tests", "--no-cache"],
        capture_output=True,
        text=True,
        cwd=project,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    hooks = (project / ".pre-commit-config.yaml").read_text()
    assert "require_serial: true" in hooks
    ignored = (project / ".gitignore").read_text().split()
    assert {".venv/", "*.egg-info/", "__pycache__/", ".mypy_cache/"} <= set(ignored)
    links = re.findall(r"\]\(([^)]*)\)", (project / "README.md").read_text())
    assert links and all(link.startswith("https://") for link in links), links


@pytest.mark.parametrize("track", ["simt", "tile"])
def test_new_project_passes_mypy_strict_with_default_flags(tmp_path: Path, track: str) -> None:
    """`mypy --strict src tests` with only the scaffold's own configuration (the documentation's recommended one).

    MYPYPATH points mypy at this checkout's sources whatever the install mode; errors mypy then reports inside
    those sources are not the scaffold's (an installed package's are silenced; tests/packaging/ runs the real
    thing from a wheel), so only the project's own files are asserted clean.
    """
    project = tmp_path / f"typed-{track}"
    create_project(project, project.name, track)
    env = dict(os.environ, MYPYPATH=str(Path(scaffold.__file__).resolve().parents[1]))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "src", "tests"],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    own = [line for line in proc.stdout.splitlines() if line.startswith(("src/", "tests/")) and ": error:" in line]
    assert own == [], "\n".join(own)


def test_new_refuses_a_non_empty_directory(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "file").write_text("keep me")
    with pytest.raises(FileExistsError):
        create_project(tmp_path / "x", "x", "simt")
    assert (tmp_path / "x" / "file").read_text() == "keep me"


def test_new_project_with_an_aliasing_bug_fails_the_checker(tmp_path: Path) -> None:
    project = tmp_path / "buggy"
    create_project(project, "buggy", "simt")
    kernels = project / "src" / "buggy" / "kernels.py"
    kernels.write_text(kernels.read_text().replace("stream, a, b, c)", "stream, c, b, c)"))
    check = subprocess.run(
        [sys.executable, "-m", "ownership_check", "src", "--no-cache", "--format", "concise"],
        capture_output=True,
        text=True,
        cwd=project,
    )
    assert check.returncode == 1, check.stdout + check.stderr
    assert "E0502" in check.stdout
