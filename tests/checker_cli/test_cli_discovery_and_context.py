"""Which files a run reads: excludes (dot-folders, ruff's defaults, .gitignore) and the project context of
given files (a kernel defined in an unchanged module still resolves when only the caller is checked)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_samples import SIMT_BAD, SIMT_HEADER, write

from ownership_check.cli import main
from ownership_check.discovery import discover, is_excluded

#: `use.py` launches `vecadd` from `kernels.py` with the same buffer as input and output (E0502, 7:36).
USE = """\
from myproject.kernels import vecadd


def step(p: object, stream: object, b: object, c: object) -> None:
    x = 1
    del x
    vecadd.launch(p, stream, c, b, c)
"""
USE_E0502 = "src/myproject/use.py:7:36: E0502 cannot borrow `c` as mutable because it is also borrowed as immutable"


def _found(root: Path, exclude: tuple[str, ...] = ()) -> list[str]:
    return sorted(Path(display).as_posix() for _, display in discover([str(root)], exclude, str(root)))


@pytest.mark.parametrize("pattern", [".venv", ".venv/", "./.venv", "/.venv", "**/.venv"])
def test_dot_folder_excludes_match(pattern: str) -> None:
    assert is_excluded(".venv", True, [pattern])
    assert is_excluded("./.venv", True, [pattern])
    assert not is_excluded("venv", True, [pattern])


def test_leading_dot_of_a_name_is_kept() -> None:
    assert not is_excluded(".hidden/x.py", False, ["hidden"])
    assert is_excluded("./build/x.py", False, ["build/x.py"])


def test_default_excludes_cover_virtualenvs_and_build_output(tmp_path: Path) -> None:
    skipped = [".venv", "venv", ".git", "build", "dist", "site-packages", "node_modules", "__pypackages__",
               ".tox", "mypkg.egg-info", ".mypy_cache", "__pycache__"]
    for folder in skipped:
        write(tmp_path, {f"{folder}/lib/bad.py": SIMT_BAD})
    write(tmp_path, {"app/main.py": SIMT_BAD, ".hidden_pkg/mod.py": SIMT_BAD})
    assert _found(tmp_path) == [f"{tmp_path.as_posix()}/.hidden_pkg/mod.py", f"{tmp_path.as_posix()}/app/main.py"]


def test_configured_dot_exclude_and_gitignore(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    write(
        tmp_path,
        {
            "pyproject.toml": '[tool.ownership-check]\nexclude = [".env-py"]\n',
            ".gitignore": "# generated\n/generated/\n*.gen.py\n!keep.gen.py\n",
            ".env-py/lib/bad.py": SIMT_BAD,
            "generated/bad.py": SIMT_BAD,
            "pkg/out.gen.py": SIMT_BAD,
            "pkg/real.py": SIMT_BAD,
        },
    )
    assert main([".", "--no-cache", "--format", "concise"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["pkg/real.py"]


def test_scaffold_style_project_with_a_venv_checks_only_its_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16.1: `exclude = [".venv"]` (as docs/checker.md and `safekernels new` write it) was ignored."""
    monkeypatch.chdir(tmp_path)
    venv_files = {f".venv/lib/python3.11/site-packages/pkg{i}/mod.py": SIMT_BAD for i in range(30)}
    write(tmp_path, {"pyproject.toml": '[tool.ownership-check]\nexclude = [".venv"]\n', "src/app.py": SIMT_BAD,
                     ".venv/lib/planted.py": SIMT_BAD, **venv_files})
    assert main([".", "--no-cache", "--format", "json"]) == 1
    assert '"files_checked": 1' in capsys.readouterr().out


def _project(tmp_path: Path, marker: str) -> Path:
    root = tmp_path / "proj"
    write(
        root,
        {
            marker: "[project]\nname = 'myproject'\n" if marker == "pyproject.toml" else "",
            "src/myproject/__init__.py": "",
            # kernels.py has its own bug (line 23): it must not be reported when only use.py is given
            "src/myproject/kernels.py": SIMT_BAD,
            "src/myproject/use.py": USE,
        },
    )
    return root


@pytest.mark.parametrize("marker", ["pyproject.toml", ".git/HEAD"])
def test_given_file_resolves_kernels_of_unchanged_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str], marker: str) -> None:
    """Issue 16.2: `ownership-check src/myproject/use.py` said "No problems found"."""
    root = _project(tmp_path, marker)
    monkeypatch.chdir(root)
    assert main(["src/myproject/use.py", "--format", "concise"]) == 1
    assert capsys.readouterr().out.splitlines() == [USE_E0502]
    assert main(["src/myproject/use.py", "--format", "json"]) == 1
    assert '"files_checked": 1' in capsys.readouterr().out
    # and the cached re-run agrees, from another working directory too
    monkeypatch.chdir(root / "src")
    assert main(["myproject/use.py", "--format", "concise"]) == 1
    assert capsys.readouterr().out.splitlines() == [USE_E0502.removeprefix("src/")]


def test_given_file_sees_a_kernel_changed_in_a_context_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, "pyproject.toml")
    monkeypatch.chdir(root)
    assert main(["src/myproject/use.py", "--format", "concise"]) == 1
    capsys.readouterr()
    # vecadd's output parameter becomes a shared input: no conflict any more (the cache must notice)
    kernels = root / "src/myproject/kernels.py"
    kernels.write_text(SIMT_HEADER.replace("c: DisjointSlice[f32]", "c: Slice[f32]").replace(
        "    if (out := c.get_mut(idx)) is not None:\n        out.set(a[i] + b[i])\n", "    pass\n"))
    assert main(["src/myproject/use.py", "--format", "concise"]) == 0


def test_cli_given_file_in_a_subprocess(tmp_path: Path) -> None:
    root = _project(tmp_path, "pyproject.toml")
    proc = subprocess.run(
        [sys.executable, "-m", "ownership_check", "src/myproject/use.py", "--format", "concise"],
        cwd=root, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines() == [USE_E0502]
