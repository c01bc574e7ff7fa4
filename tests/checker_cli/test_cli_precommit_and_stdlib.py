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
from cli_samples import SIMT_HEADER, TILE_BAD, TILE_CLEAN, write

from ownership_check.api import check_paths
from ownership_check.config import Config

REPO = Path(__file__).resolve().parents[2]

#: A caller whose kernel lives in another module of the project (E0502 at 5:36).
CROSS_MODULE_USE = """\
from myproject.kernels import vecadd


def step(p: object, stream: object, b: object, c: object) -> None:
    vecadd.launch(p, stream, c, b, c)
"""


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
    # No skip on pre-commit errors (an offline machine must fail here, not pass silently).
    assert "An unexpected error has occurred" not in proc.stdout + proc.stderr, proc.stdout[-4000:]
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "error[E0382]: use of moved value: `z`" in proc.stdout
    assert "--> bad.py:15:15" in proc.stdout
    clean = run("good.py")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    # Issue 16.2: only the changed caller is passed; its kernel lives in an unchanged, committed module.
    write(user, {"pyproject.toml": "[project]\nname = 'myproject'\n", "src/myproject/__init__.py": "",
                 "src/myproject/kernels.py": SIMT_HEADER})
    _git(user, "add", "-A")
    _git(user, "commit", "-qm", "kernels")
    write(user, {"src/myproject/use.py": CROSS_MODULE_USE})
    _git(user, "add", "src/myproject/use.py")
    cross = run("src/myproject/use.py")
    assert cross.returncode == 1, cross.stdout + cross.stderr
    assert "error[E0502]: cannot borrow `c` as mutable because it is also borrowed as immutable" in cross.stdout
    assert "--> src/myproject/use.py:5:36" in cross.stdout


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
