"""One regression test per checker failure found by the hostile-input review (issue 15, items 1-8).

Each test reproduces the failure as it was reported (segfault, hang, traceback, silent pass, stale cache,
foreign code run) and asserts the located diagnostic or clean error that replaced it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_corpus import BAD_LINE, KERNEL, RELEVANT

import ownership_check.runner as runner
from ownership_check.api import check_paths, check_source
from ownership_check.cli import main

TIMEOUT = 120


def _cli(cwd: Path, *args: str, module: str = "ownership_check") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT
    )


def _relevant(expr: str) -> str:
    return RELEVANT.format(expr=expr)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    return tmp_path


# 1. A 10,000-term `and` segfaulted libcst (exit 139); with --jobs 2 the run hung forever.
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ten_thousand_term_and_is_a_located_w0002(tmp_path: Path, jobs: str) -> None:
    (tmp_path / "chain.py").write_text(_relevant("(" + "\n    and ".join(["x"] * 10_000) + ")"))
    (tmp_path / "clean.py").write_text(_relevant("x"))
    proc = _cli(tmp_path, ".", "--no-cache", "--format", "concise", "--jobs", jobs)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == (
        "chain.py:16:10: W0002 ownership of this file was not checked: file too complex to analyse: "
        "an `and`/`or` chain of 10,000 operands (at most 400 levels of nesting are analysed)\n"
    )


# 2. 3,000-term chains took ~50 s; 5,000 printed a RecursionError and "No problems found"; nesting >= 3,000
#    deep raised RecursionError/MemoryError tracebacks.
@pytest.mark.parametrize(
    "expr",
    [
        " or ".join(["x"] * 3000),
        " and ".join(["x"] * 5000),
        "not " * 3000 + "x",
        " + ".join(["x"] * 3000),
        "x if x else " * 3000 + "x",
        "x" + "[0]" * 3000,
    ],
    ids=["or3000", "and5000", "not3000", "plus3000", "cond3000", "subscript3000"],
)
def test_deep_or_long_expressions_are_refused_quickly(expr: str) -> None:
    start = time.perf_counter()
    diags = check_source(_relevant(expr), "deep.py")
    assert time.perf_counter() - start < 10
    assert [(d.code, d.message.split(": ", 1)[1].split(":")[0]) for d in diags] == [
        ("W0002", "file too complex to analyse")
    ]


def test_internal_errors_never_print_no_problems_found(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    (project / "k.py").write_text(_relevant("x"))

    def broken(*args: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(runner, "analyze_source", broken)
    assert main(["k.py", "--no-cache"]) == 2
    out, err = capsys.readouterr()
    assert "No problems found" not in out
    assert "could not be checked" in out and "internal error: k.py: internal error" in err


def test_build_says_when_the_checker_failed_rather_than_reported(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("tool = 3\n")  # the checker exits 2 (a config error)
    (tmp_path / "k.py").write_text(KERNEL.split("\n\ndef main")[0] + "\n")
    proc = _cli(tmp_path, "build", "k.py", "--emit", "llvm", "-o", "out", module="safekernels")
    assert proc.returncode == 1
    assert "the ownership checker failed (exit status 2)" in proc.stderr
    assert "reported errors" not in proc.stderr


# 3. A BOM hid the real diagnostic behind E0001 U+FEFF; CR-only endings gave a wrong column and a garbled
#    window; invalid UTF-8 got no E0001.
def test_bom_file_gets_its_real_diagnostic(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "bom.py").write_bytes(b"\xef\xbb\xbf" + KERNEL.encode())
    assert main(["bom.py", "--no-cache", "--format", "concise"]) == 1
    assert capsys.readouterr().out.startswith(f"bom.py:{BAD_LINE}:36: E0502 ")


def test_cr_only_line_endings_keep_columns_and_source_window(project: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    (project / "cr.py").write_bytes(KERNEL.replace("\n", "\r").encode())
    assert main(["cr.py", "--no-cache"]) == 1
    out = capsys.readouterr().out
    assert f"--> cr.py:{BAD_LINE}:36" in out
    assert f"{BAD_LINE} |     vecadd.launch(p, stream, c, b, c)\n" in out
    assert "\r" not in out


def test_invalid_utf8_is_e0001_at_its_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "bad.py").write_bytes(KERNEL.encode() + b"\n# caf\xe9\n")
    assert main(["bad.py", "--no-cache", "--format", "concise"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"bad.py:{BAD_LINE + 2}:6: E0001 syntax error: (unicode error) 'utf-8' codec can't")
    python = subprocess.run([sys.executable, "bad.py"], cwd=project, capture_output=True, text=True)
    assert "SyntaxError: Non-UTF-8 code" in python.stderr  # Python agrees: the file cannot run


# 4. A FIFO named *.py hung the run; a symlink to /dev/zero grew to 12.8 GB; file symlinks out of the tree
#    were followed; an unreadable directory passed as "No problems found (checked 0 files)".
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_and_device_given_explicitly_are_errors_not_hangs(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    proc = _cli(tmp_path, "fifo.py", "zero.py", "--no-cache")
    assert proc.returncode == 2
    assert "fifo.py: not a regular file" in proc.stderr and "zero.py: not a regular file" in proc.stderr
    assert "No problems found" not in proc.stdout


def test_symlink_out_of_the_tree_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.py").write_text(KERNEL)
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "inside.py").write_text(KERNEL)
    (tmp_path / "tree" / "link_in.py").symlink_to(tmp_path / "tree" / "inside.py")
    (tmp_path / "tree" / "link_out.py").symlink_to(tmp_path / "outside" / "secret.py")
    result = check_paths([str(tmp_path / "tree")], use_cache=False)
    assert sorted(Path(d.path).name for d in result.diagnostics) == ["inside.py", "link_in.py"]


def test_unreadable_directory_is_an_error(project: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    locked = project / "locked"
    locked.mkdir()
    (locked / "k.py").write_text(KERNEL)
    if os.geteuid() != 0:
        locked.chmod(0)
    else:  # root reads any directory: make scandir fail as it would for anyone else
        real = os.scandir

        def scandir(path: str = ".") -> object:
            if os.path.abspath(path) == str(locked):
                raise PermissionError(13, "Permission denied", path)
            return real(path)

        monkeypatch.setattr(os, "scandir", scandir)
    try:
        assert main([".", "--no-cache"]) == 2
    finally:
        locked.chmod(0o755)
    out, err = capsys.readouterr()
    assert "locked: cannot read directory: Permission denied" in err
    assert "No problems found" not in out


# 5. `tool = 3` or non-UTF-8 pyproject.toml gave tracebacks.
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"tool = 3\n", "`tool` must be a table"),
        (b"[tool]\nownership-check = 3\n", "[tool.ownership-check] must be a table"),
        (b"[project]\nname = '\xff'\n", "it is not valid UTF-8"),
        (b"[tool.ownership-check]\nexclude = [1]\n", "`exclude` must be a list of strings"),
        (b"[[[\n", "cannot read"),
    ],
    ids=["tool-int", "section-int", "non-utf8", "exclude-int", "invalid-toml"],
)
def test_bad_pyproject_is_a_config_error(tmp_path: Path, content: bytes, message: str) -> None:
    (tmp_path / "pyproject.toml").write_bytes(content)
    (tmp_path / "k.py").write_text(KERNEL)
    proc = _cli(tmp_path, "k.py", "--no-cache")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert message in proc.stderr and "pyproject.toml" in proc.stderr


# 6. Stale cache after adding an empty pkg/__init__.py; wrong-shaped cache JSON gave KeyError, deeply nested
#    JSON RecursionError.
def test_adding_an_init_py_invalidates_the_cache(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pkg = project / "pkg"
    pkg.mkdir()
    (pkg / "kernels.py").write_text(KERNEL.split("\n\ndef main")[0] + "\n")
    (pkg / "use.py").write_text(
        "from pkg.kernels import vecadd\n\n\ndef main(p, stream, b, c):\n    vecadd.launch(p, stream, c, b, c)\n"
    )
    assert main(["pkg", "--format", "concise"]) == 0  # not a package yet: `pkg.kernels` is not this file
    capsys.readouterr()
    (pkg / "__init__.py").write_text("")
    assert main(["pkg", "--format", "concise"]) == 1
    cached = capsys.readouterr().out
    assert main(["pkg", "--format", "concise", "--no-cache"]) == 1
    assert capsys.readouterr().out == cached
    assert cached == "pkg/use.py:5:36: E0502 cannot borrow `c` as mutable because it is also borrowed as immutable\n"


def _cache_file(project: Path) -> Path:
    (found,) = [p for p in (project / ".ownership_check_cache").iterdir() if p.suffix == ".json"]
    return found


def _rewrite_with_valid_checksum(path: Path, body: bytes) -> None:
    import hashlib

    header = path.read_bytes().split(b"\n", 1)[0].rsplit(b" ", 1)[0]
    path.write_bytes(header + b" " + hashlib.blake2b(body, digest_size=16).hexdigest().encode() + b"\n" + body)


@pytest.mark.parametrize("shape", ["wrong-summary", "wrong-diagnostics", "deeply-nested", "tampered", "truncated"])
def test_corrupt_cache_is_a_miss(project: Path, capsys: pytest.CaptureFixture[str], shape: str) -> None:
    (project / "bad.py").write_text(KERNEL)
    assert main(["bad.py", "--format", "concise"]) == 1
    expected = capsys.readouterr().out
    cache = _cache_file(project)
    key = str(project / "bad.py")
    if shape in ("wrong-summary", "wrong-diagnostics"):  # checksum correct, records of the wrong shape
        data = json.loads(cache.read_bytes().split(b"\n", 1)[1])
        entry = data["files"][key]
        if shape == "wrong-summary":
            entry["summary"] = {"module": 3}
        else:  # every key present, wrong types: reused, it would crash sorting or rendering
            entry["diags"] = [{"code": None, "message": 1, "path": "bad.py", "span": ["a", 1, 1, 1],
                               "severity": "error", "labels": [], "notes": [], "help": None}]
        _rewrite_with_valid_checksum(cache, json.dumps(data).encode())
    elif shape == "deeply-nested":
        _rewrite_with_valid_checksum(cache, b"[" * 100_000 + b"]" * 100_000)
    elif shape == "tampered":  # an edited record no longer matches the checksum
        cache.write_bytes(cache.read_bytes().replace(b"E0502", b"E0499"))
    else:
        cache.write_bytes(cache.read_bytes()[:-40])
    assert main(["bad.py", "--format", "concise"]) == 1
    assert capsys.readouterr().out == expected


def test_cache_key_covers_the_tool_version(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    import ownership_check.cache as cache

    before = cache.checker_version()
    cache.checker_version.cache_clear()
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.0.0+another-libcst")
    try:
        assert cache.checker_version() != before
    finally:
        cache.checker_version.cache_clear()


# 7. `python -m ownership_check`, `python -m safekernels check` and build's checker subprocess imported
#    json.py, typing.py, dataclasses.py ... from the working directory.
def _plant_lookalikes(where: Path) -> None:
    for name in sorted(sys.stdlib_module_names):
        (where / f"{name}.py").write_text(
            "import os as _os\n"
            f"open(_os.path.join({str(where)!r}, 'EXECUTED-{name}'), 'w').close()\n"
            f"raise SystemExit('the look-alike {name}.py was executed')\n"
        )


@pytest.mark.parametrize(
    "command",
    [
        ["-m", "ownership_check", "prog.py", "--no-cache"],
        ["-m", "safekernels", "check", "prog.py", "--no-cache"],
        ["-m", "safekernels", "build", "prog.py", "--emit", "llvm", "-o", "out"],
    ],
    ids=["python-m-ownership_check", "python-m-safekernels-check", "python-m-safekernels-build"],
)
def test_entry_points_never_import_the_checked_tree(tmp_path: Path, command: list[str]) -> None:
    _plant_lookalikes(tmp_path)
    (tmp_path / "prog.py").write_text(KERNEL.split("\n\ndef main")[0] + "\n")
    proc = subprocess.run([sys.executable, *command], cwd=tmp_path, capture_output=True, text=True,
                          timeout=TIMEOUT)
    executed = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("EXECUTED-"))
    assert executed == [], proc.stderr
    assert proc.returncode == 0, proc.stdout + proc.stderr


# 8. A newline in a file name split `--format concise` lines; a 1 MB line took ~30 s and 1.5 GB.
def test_newline_in_file_name_stays_one_concise_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "a\nb.py").write_text(KERNEL)
    assert main([".", "--no-cache", "--format", "concise"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"a\\nb.py:{BAD_LINE}:36: E0502 cannot borrow `c` as mutable because it is also borrowed as immutable"
    ]


def test_one_megabyte_line_is_refused_fast(tmp_path: Path) -> None:
    (tmp_path / "wide.py").write_text(_relevant('"' + "a" * 1_000_000 + '"'))
    start = time.perf_counter()
    proc = _cli(tmp_path, "wide.py", "--no-cache", "--format", "concise")
    assert time.perf_counter() - start < 20
    assert proc.returncode == 1
    assert proc.stdout.startswith("wide.py:1:1: W0002 ownership of this file was not checked: file too complex")


# Deliver 2: a worker that dies does not hang or sink the run; a file past its time budget is reported.
def test_a_crashed_worker_costs_one_file_not_the_run(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (project / "crash.py").write_text(_relevant("x"))
    (project / "bad.py").write_text(KERNEL)
    real = runner.analyze_source

    def crash_on_one(source: str, path: str, *args: object) -> object:
        if path == "crash.py":
            os._exit(139)  # what a native segfault looks like from the parent
        return real(source, path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "analyze_source", crash_on_one)
    assert main([".", "--no-cache", "--jobs", "2", "--format", "concise"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"bad.py:{BAD_LINE}:36: E0502 cannot borrow `c` as mutable because it is also borrowed as immutable",
        "crash.py:1:1: W0002 ownership of this file was not checked: the analysis process crashed on it "
        "(please report this file)",
    ]


def test_a_file_past_its_time_budget_is_reported(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (project / "slow.py").write_text(_relevant("x"))

    def endless(*args: object) -> object:
        while True:
            time.sleep(0.01)

    real = runner.analyze_source
    monkeypatch.setattr(runner, "analyze_source", endless)
    monkeypatch.setenv(runner.FILE_BUDGET_ENV, "0.3")
    assert main(["slow.py", "--format", "concise"]) == 1
    assert capsys.readouterr().out == (
        "slow.py:1:1: W0002 ownership of this file was not checked: file too complex to analyse: "
        "the analysis took longer than 0.3 s\n"
    )
    # a verdict of this run's budget is not cached: with time to finish, the file is analysed (and clean)
    monkeypatch.setattr(runner, "analyze_source", real)
    monkeypatch.delenv(runner.FILE_BUDGET_ENV)
    assert main(["slow.py", "--format", "concise"]) == 0


def test_an_unexpected_exception_is_exit_2_not_a_bare_traceback(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """An uncaught exception used to exit 1, which CI reads as "diagnostics reported"."""
    import ownership_check.cli as cli

    def broken(*args: object, **kwargs: object) -> object:
        raise UnicodeEncodeError("utf-8", "\udcff", 0, 1, "surrogates not allowed")

    monkeypatch.setattr(cli, "check_paths", broken)
    assert main(["."]) == 2
    assert "internal error (please report it)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["py", "-m", "ownership_check", "x.py"], "ownership_check"),
        (["py", "-X", "dev", "-W", "error", "-m", "safekernels"], "safekernels"),
        (["py", "-Ximporttime", "-Wmodule", "-Bm", "safekernels"], "safekernels"),
        (["py", "-msafekernels", "check"], "safekernels"),
        (["py", "-c", "import safekernels"], None),
        (["py", "script.py", "-m", "safekernels"], None),
        (["py"], None),
    ],
)
def test_module_run_detection(argv: list[str], name: str | None) -> None:
    from safekernels.safe_sys_path import _module_run_name

    assert _module_run_name(argv) == name


def test_source_window_never_sends_control_characters_to_the_terminal(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "esc.py").write_text(KERNEL.replace("vecadd.launch(p, stream, c, b, c)",
                                                   'vecadd.launch(p, stream, c, b, c)  # "\x1b[2J\x07"'))
    assert main(["esc.py", "--no-cache"]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert f'{BAD_LINE} |     vecadd.launch(p, stream, c, b, c)  # "\u241b[2J\u2407"' in out


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs POSIX signal masks")
def test_a_worker_stuck_where_its_timer_cannot_fire_is_killed(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Native code that never returns ignores the worker's own timer; the parent notices the silence."""
    (project / "stuck.py").write_text(_relevant("x"))
    (project / "bad.py").write_text(KERNEL)
    real = runner.analyze_source

    def stuck_on_one(source: str, path: str, *args: object) -> object:
        if path == "stuck.py":
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # as if inside a native loop
            while True:
                time.sleep(0.05)
        return real(source, path, *args)  # type: ignore[arg-type]

    import ownership_check.frontend.ast_lowering  # noqa: F401  (loaded before the fork: bad.py fits its budget)

    monkeypatch.setattr(runner, "analyze_source", stuck_on_one)
    monkeypatch.setenv(runner.FILE_BUDGET_ENV, "1.5")
    start = time.perf_counter()
    assert main([".", "--no-cache", "--jobs", "2", "--format", "concise"]) == 1
    assert time.perf_counter() - start < 60
    assert capsys.readouterr().out.splitlines() == [
        f"bad.py:{BAD_LINE}:36: E0502 cannot borrow `c` as mutable because it is also borrowed as immutable",
        "stuck.py:1:1: W0002 ownership of this file was not checked: file too complex to analyse: "
        "the analysis took longer than 1.5 s",
    ]
