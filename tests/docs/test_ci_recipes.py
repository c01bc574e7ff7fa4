"""The pre-commit recipes of docs/ci-recipes.md work as written.

The `repo: local` recipe runs in a temporary git repository with the project's own environment on PATH and
catches a planted E0502 (and passes once it is fixed); the remote recipe names the repository and the tag scheme
from safekernels' own metadata and a hook id that `.pre-commit-hooks.yaml` defines.  (Cross-module resolution in
pre-commit runs is tested with the checker's CLI.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml")  # comes with pre-commit ([dev]); the GPU machine's `pytest -m gpu` lacks both

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "ci-recipes.md"

KERNEL = """\
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.dtypes import f32


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
a = sk.to_device(np.ones(8, np.float32), stream)
b = sk.to_device(np.ones(8, np.float32), stream)
c = sk.zeros(8, f32, stream)
vecadd.launch(vecadd.prepare(simt.LaunchConfig1D.for_len(8, block=256), dev), stream, {args})
"""


def _recipes() -> list[dict[str, Any]]:
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## pre-commit", 1)[1].split("\n## ", 1)[0]
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", section, re.DOTALL)]


def test_the_remote_recipe_uses_the_projects_repository_and_tag_scheme() -> None:
    remote = [repo for recipe in _recipes() for repo in recipe["repos"] if repo["repo"] != "local"]
    assert len(remote) == 1
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert remote[0]["repo"] == project["urls"]["Repository"]
    # a tag that exists: the newest release CHANGELOG.md dates, `v` + its version; before the first one, `main`
    # (a pinned tag that does not exist fails every user who copies the recipe)
    released = re.findall(
        r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", (REPO / "CHANGELOG.md").read_text(encoding="utf-8"), re.M
    )
    assert remote[0]["rev"] == (f"v{released[0]}" if released else "main")
    defined = {hook["id"] for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert {hook["id"] for hook in remote[0]["hooks"]} <= defined


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_local_recipe_catches_an_e0502_in_a_commit(tmp_path: Path) -> None:
    local = next(repo for recipe in _recipes() for repo in recipe["repos"] if repo["repo"] == "local")
    hook = next(h for h in local["hooks"] if h["id"] == "ownership-check")
    project = tmp_path / "project"
    project.mkdir()
    config = {"repos": [{"repo": "local", "hooks": [hook]}]}
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    kernel = project / "kernels.py"
    kernel.write_text(KERNEL.format(args="c, b, c"), encoding="utf-8")
    env = dict(
        os.environ,
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",  # the project's environment
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
    )

    def git(*argv: str) -> None:
        subprocess.run(["git", *argv], cwd=project, env=env, check=True, capture_output=True)

    def pre_commit() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
            cwd=project, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip

    git("init", "-q")
    git("add", "-A")
    caught = pre_commit()
    assert caught.returncode == 1, caught.stdout + caught.stderr
    assert "error[E0502]" in caught.stdout and "kernels.py:22" in caught.stdout
    kernel.write_text(KERNEL.format(args="a, b, c"), encoding="utf-8")
    git("add", "-A")
    clean = pre_commit()
    assert clean.returncode == 0, clean.stdout + clean.stderr
