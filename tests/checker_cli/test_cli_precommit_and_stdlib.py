"""End-to-end: the pre-commit hook from a clean repository, and the whole CPython stdlib stays silent."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
from cli_samples import TILE_BAD, TILE_CLEAN

from ownership_check.api import check_paths
from ownership_check.config import Config

REPO = Path(__file__).resolve().parents[2]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=test@example.invalid", "-c", "user.name=test", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.mark.slow
def test_pre_commit_try_repo(tmp_path: Path) -> None:
    pre_commit = shutil.which("pre-commit") or str(Path(sys.executable).with_name("pre-commit"))
    if not Path(pre_commit).exists() or shutil.which("git") is None:
        pytest.skip("pre-commit or git is not available")
    hooks = tmp_path / "hookrepo"
    hooks.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for name in ("pyproject.toml", ".pre-commit-hooks.yaml", "README.md"):
        if (REPO / name).exists():
            shutil.copy(REPO / name, hooks / name)
    if not (hooks / "README.md").exists():
        (hooks / "README.md").write_text("safekernels\n")
    shutil.copytree(REPO / "src", hooks / "src", ignore=ignore)
    if (REPO / "mypy_plugin").exists():
        shutil.copytree(REPO / "mypy_plugin", hooks / "mypy_plugin", ignore=ignore)
    _git(hooks, "init", "-q")
    _git(hooks, "add", "-A")
    _git(hooks, "commit", "-qm", "hook repo")
    user = tmp_path / "userrepo"
    user.mkdir()
    _git(user, "init", "-q")
    (user / "bad.py").write_text(TILE_BAD)
    (user / "good.py").write_text(TILE_CLEAN)
    _git(user, "add", "bad.py", "good.py")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pc-home")}
    env.pop("PRE_COMMIT", None)

    def run(*files: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [pre_commit, "try-repo", str(hooks), "ownership-check", "--files", *files],
            cwd=user,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )

    proc = run("bad.py")
    if "An unexpected error has occurred" in proc.stdout + proc.stderr:
        pytest.skip(f"pre-commit could not install the hook environment:\n{proc.stdout[-2000:]}")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "error[E0382]: use of moved value: `z`" in proc.stdout
    assert "--> bad.py:15:15" in proc.stdout
    clean = run("good.py")
    assert clean.returncode == 0, clean.stdout + clean.stderr


def test_whole_stdlib_is_silent() -> None:
    stdlib = sysconfig.get_paths()["stdlib"]
    start = time.perf_counter()
    result = check_paths([stdlib], use_cache=False, config=Config(root=stdlib))
    elapsed = time.perf_counter() - start
    assert result.internal_errors == []
    assert result.diagnostics == []
    assert result.files_checked > 500
    lines = sum(text.count("\n") for text in result.sources.values())
    assert lines == 0  # nothing in the stdlib involves safekernels, so no file reached the libcst front end
    assert elapsed < 120
