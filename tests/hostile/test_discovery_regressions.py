"""Regression tests for which files a checker run reads (issue 22, classes H and I).

H: `.gitignore` / `exclude` globs backtracked (22 `*a` then `*b` against a 120-character name never finished),
1,000 patterns took 12 s, a 1 MiB `.gitignore` a minute, and a FIFO named `.gitignore` hung the run.
I: `!` negations were dropped, so `/*` then `!/src` checked nothing (exit 0), in pre-commit mode too.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hostile_corpus import KERNEL

from ownership_check.cli import main
from ownership_check.discovery import GitignoreError, is_excluded, read_gitignore
from ownership_check.path_patterns import PathMatcher, segment_regex

KERNEL_MODULE = KERNEL.split("\n\ndef main")[0] + "\n"
CALLER = "from pkg.kernels import vecadd\n\n\ndef step(p: object, s: object, b: object, c: object) -> None:\n" \
         "    vecadd.launch(p, s, c, b, c)\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    return tmp_path


def _concise(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    status = main([*args, "--no-cache", "--format", "concise"])
    return status, [line.split(":")[0] for line in capsys.readouterr().out.splitlines() if ": E0" in line]


# I. Negations.
def test_a_negated_folder_is_checked(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".gitignore").write_text("/*\n!/src\n")
    (project / "src").mkdir()
    (project / "src" / "host.py").write_text(KERNEL)
    (project / "other").mkdir()
    (project / "other" / "host.py").write_text(KERNEL)
    status, paths = _concise(capsys, ".")
    assert status == 1 and paths == ["src/host.py"]


def test_negations_in_exclude_and_gitignore(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".gitignore").write_text("gen/**\n!gen/keep.py\n*.py\n!*_check.py\n")
    (project / "gen").mkdir()
    for name in ("gen/keep.py", "gen/drop.py", "a_check.py", "b.py"):
        (project / name).write_text(KERNEL)
    status, paths = _concise(capsys, ".")
    assert status == 1 and sorted(paths) == ["a_check.py"]  # gen/keep.py: `*.py` (later) excludes it again
    (project / ".gitignore").write_text("gen/**\n!gen/keep.py\n")
    status, paths = _concise(capsys, ".")
    assert sorted(paths) == ["a_check.py", "b.py", "gen/keep.py"]


def test_pre_commit_mode_indexes_a_re_included_kernel_module(project: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".gitignore").write_text("/*\n!/pkg\n!/pyproject.toml\n")
    (project / "pkg").mkdir()
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "kernels.py").write_text(KERNEL_MODULE)
    (project / "pkg" / "caller.py").write_text(CALLER)
    status, paths = _concise(capsys, "pkg/caller.py")  # what a pre-commit hook passes: only the changed file
    assert status == 1 and paths == ["pkg/caller.py"]


def test_an_excluded_folder_cannot_be_re_included_below(project: Path) -> None:
    assert is_excluded("build", True, ["build/", "!build/keep.py"])  # as git: the folder is never entered
    assert not is_excluded("abc", True, ["abc/**", "!abc/keep.py"])  # `/**` excludes the contents only
    assert not is_excluded("abc/keep.py", False, ["abc/**", "!abc/keep.py"])


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "expected"),
    [
        ("*.py[co]", "a/b.pyc", False, True),
        ("[!a]*.py", "a.py", False, False),
        ("[!a]*.py", "b.py", False, True),
        ("\\!important.py", "!important.py", False, True),
        ("\\#x.py", "#x.py", False, True),
        ("trailing.py\\ ", "trailing.py ", False, True),
        ("a/**/b", "a/b", True, True),
        ("a/**/b", "a/x/y/b", True, True),
        ("**/fixtures", "x/y/fixtures", True, True),
        ("docs/", "docs", False, False),
        ("/top.py", "sub/top.py", False, False),
        ("?.py", "ab.py", False, False),
        ("*a*b*c", "xaybzc", False, True),
        ("*a*b*c", "xcybza", False, False),
        ("ünï*", "ünïcode.py", False, True),
    ],
)
def test_gitignore_semantics(pattern: str, path: str, is_dir: bool, expected: bool) -> None:
    from ownership_check.path_patterns import parse_line

    parsed = parse_line(pattern)
    assert parsed is not None
    assert is_excluded(path, is_dir, [parsed]) is expected


# H. Linear time, bounded sizes, regular files only.
def test_the_backtracking_glob_is_instant() -> None:
    pattern = "*a" * 22 + "*b"
    name = "a" * 120
    start = time.perf_counter()
    matcher = PathMatcher([pattern, f"**/{pattern}", f"{pattern}/**", f"/x/**/{pattern}/**/y"])
    assert not matcher.excluded(name, False)
    assert not matcher.excluded(f"x/{name}/{name}/{name}/y", False)
    assert matcher.excluded(name + "b", False)
    assert segment_regex(pattern).match(name) is None
    assert time.perf_counter() - start < 1


def test_a_pathological_gitignore_through_the_cli(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".gitignore").write_text(("*a" * 22 + "*b\n") + ("**/" + "*a" * 22 + "*b/**\n"))
    (project / ("a" * 120 + ".py")).write_text(KERNEL)
    start = time.perf_counter()
    status, paths = _concise(capsys, ".")
    assert time.perf_counter() - start < 30
    assert status == 1 and paths == ["a" * 120 + ".py"]


def test_a_thousand_patterns_over_five_hundred_files(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [f"*x{i}*y{i}*z" if i % 3 else f"/dir{i}/**/skip{i}.py" for i in range(1000)]
    (project / ".gitignore").write_text("\n".join(lines) + "\n!keep*\n")
    for i in range(500):
        folder = project / f"d{i % 10}"
        folder.mkdir(exist_ok=True)
        (folder / f"m{i}_{'q' * 60}.py").write_text("x = 1\n")
    start = time.perf_counter()
    status, _ = _concise(capsys, ".")
    assert status == 0
    assert time.perf_counter() - start < 30


def test_a_one_mebibyte_gitignore(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = "generated/some/long/path/file_{}.py\n"
    text = "".join(line.format(i) for i in range(30_000))
    text = text[: (1 << 20) - 20] + "\n"
    (project / ".gitignore").write_text(text)
    (project / "host.py").write_text(KERNEL)
    start = time.perf_counter()
    status, paths = _concise(capsys, ".")
    assert status == 1 and paths == ["host.py"]
    assert time.perf_counter() - start < 30


def test_a_gitignore_over_the_limit_is_an_error_not_a_silent_cut(project: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".gitignore").write_text("x\n" * (600_000) + "!keep.py\n")
    (project / "host.py").write_text(KERNEL)
    status = main([".", "--no-cache", "--format", "concise"])
    err = capsys.readouterr().err
    assert status == 2 and ".gitignore: larger than 1024 KiB" in err


def test_too_many_wildcard_patterns_is_an_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".gitignore").write_text("".join(f"*a{i}*b\n" for i in range(2_500)))
    with pytest.raises(GitignoreError, match="more than 2,000 patterns with wildcards"):
        read_gitignore(str(project))


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory"])
def test_a_gitignore_that_is_not_a_regular_file(project: Path, kind: str) -> None:
    target = project / ".gitignore"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        target.symlink_to("/dev/zero")
    else:
        target.mkdir()
    (project / "host.py").write_text(KERNEL)
    proc = subprocess.run([sys.executable, "-m", "ownership_check", ".", "--no-cache", "--format", "concise"],
                          cwd=project, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert ".gitignore: not a regular file" in proc.stderr or ".gitignore: cannot read" in proc.stderr
    assert "host.py:17:36: E0502" in proc.stdout  # checked without the file: more, never fewer


def test_read_gitignore_never_blocks_on_a_fifo(project: Path) -> None:
    os.mkfifo(project / ".gitignore")
    result: list[BaseException] = []

    def read() -> None:
        try:
            read_gitignore(str(project))
        except BaseException as exc:
            result.append(exc)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive() and isinstance(result[0], GitignoreError)


# I, as git does it: `.gitignore` files in folders below the root, their own negations, the deepest one deciding.
def test_nested_gitignore_files(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".gitignore").write_text("*.py\n!/pkg/\n")
    (project / "pkg" / "gen").mkdir(parents=True)
    (project / "pkg" / ".gitignore").write_text("*.py\n!keep*.py\n")
    (project / "pkg" / "gen" / ".gitignore").write_text("!*.py\nskip.py\n")
    for name in ("top.py", "pkg/a.py", "pkg/keep_a.py", "pkg/gen/b.py", "pkg/gen/skip.py"):
        (project / name).write_text(KERNEL)
    status, paths = _concise(capsys, ".")
    assert status == 1 and sorted(paths) == ["pkg/gen/b.py", "pkg/keep_a.py"]
    status, paths = _concise(capsys, "pkg/gen")  # walking a subfolder still applies the folders above it
    assert sorted(paths) == ["pkg/gen/b.py"]


def test_a_nested_gitignore_that_is_a_fifo_is_an_error(project: Path) -> None:
    (project / "sub").mkdir()
    os.mkfifo(project / "sub" / ".gitignore")
    (project / "sub" / "host.py").write_text(KERNEL)
    proc = subprocess.run([sys.executable, "-m", "ownership_check", ".", "--no-cache", "--format", "concise"],
                          cwd=project, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "sub/.gitignore: not a regular file" in proc.stderr
    assert "sub/host.py:17:36: E0502" in proc.stdout


def test_pre_commit_mode_follows_a_nested_gitignore(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / ".gitignore").write_text("*\n!*.py\n")
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "kernels.py").write_text(KERNEL_MODULE)
    (project / "pkg" / "caller.py").write_text(CALLER)
    status, paths = _concise(capsys, "pkg/caller.py")
    assert status == 1 and paths == ["pkg/caller.py"]


# G for the checker's own cache: a FIFO or a /dev/zero link where a cache file should be is ignored, not read.
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_the_checker_cache_reads_regular_files_only(project: Path, kind: str) -> None:
    from ownership_check import cache

    (project / "host.py").write_text(KERNEL)
    first = subprocess.run([sys.executable, "-m", "ownership_check", "host.py", "--format", "concise"],
                           cwd=project, capture_output=True, text=True, timeout=60)
    (cache_file,) = (project / ".ownership_check_cache").glob("*.json")
    cache_file.unlink()
    if kind == "fifo":
        os.mkfifo(cache_file)
    else:
        cache_file.symlink_to("/dev/zero")
    result: list[object] = []
    thread = threading.Thread(target=lambda: result.append(cache._load(str(cache_file))), daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive() and result == [{}]
    again = subprocess.run([sys.executable, "-m", "ownership_check", "host.py", "--format", "concise"],
                           cwd=project, capture_output=True, text=True, timeout=60)
    assert again.returncode == first.returncode == 1 and again.stdout == first.stdout


def test_a_huge_pyproject_is_a_configuration_error_not_a_memory_blowup(project: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    with open(project / "pyproject.toml", "wb") as handle:
        handle.truncate(5 * 1024 * 1024 * 1024)  # sparse: 5 GiB of zeros, no disk used
    (project / "host.py").write_text(KERNEL)
    assert main(["host.py", "--no-cache"]) == 2
    assert "pyproject.toml: 5368709120 bytes, more than the 4194304 this file may have" in capsys.readouterr().err
