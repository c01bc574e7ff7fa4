"""Regression tests for the build, the prebuilt loader and the on-disk readers (issue 22, classes A-G and R).

Each test reproduces a failure of the third hostile-input review as it was reported (foreign code run, a
wrong exit status, a lost manifest, a traceback, a hang) and asserts the clear outcome that replaced it.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path
from typing import Any

import pytest
from hostile_corpus import KERNEL

import safekernels as sk
from safekernels.autotune.store import TuningStore
from safekernels.prebuilt import PrebuiltError, load_prebuilt

TIMEOUT = 180
CLEAN_KERNEL = KERNEL.split("\n\ndef main")[0] + "\n"


def _run(cwd: Path, *args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, **kwargs
    )


def _build(cwd: Path, *args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return _run(cwd, "-m", "safekernels", "build", *args, **kwargs)


def _build_here(cwd: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """`safekernels build ... --no-check -q` in this process (no checker subprocess to wait for)."""
    from safekernels.codegen import build_cli

    status = build_cli.main([str(cwd / args[0]), *args[1:], "--no-check", "-q"])
    return status, capsys.readouterr().err


def _plant(where: Path, names: list[str]) -> None:
    for name in names:
        (where / f"{name}.py").write_text(
            "import os as _os\n"
            f"open(_os.path.join({str(where)!r}, 'EXECUTED-{name}'), 'w').close()\n"
            f"raise SystemExit('the look-alike {name}.py was executed')\n"
        )


def _executed(where: Path) -> list[str]:
    return sorted(p.name for p in where.iterdir() if p.name.startswith("EXECUTED-"))


OWN_NAMES = ["safekernels", "ownership_check", "codegen", "mypy_plugin", "cuda"]


# A. `python -m safekernels check` in a folder holding `safekernels.py` ran that file and exited 0.
def test_the_startup_guard_is_installed_in_this_environment() -> None:
    from safekernels.safe_sys_path import PTH_LINE

    guard = Path(sysconfig.get_paths()["purelib"]) / "safekernels-module-guard.pth"
    assert guard.is_file(), "run `make setup` (it installs the startup guard of `python -m safekernels`)"
    assert guard.read_text() == PTH_LINE


@pytest.mark.parametrize(
    "command",
    [
        ["-m", "safekernels", "check", "prog.py", "--no-cache"],
        ["-m", "ownership_check", "prog.py", "--no-cache"],
        ["-m", "safekernels", "build", "prog.py", "--emit", "llvm", "-o", "out"],
        ["-m", "codegen"],
    ],
    ids=["safekernels-check", "ownership_check", "safekernels-build", "codegen"],
)
def test_own_package_lookalikes_never_run(tmp_path: Path, command: list[str]) -> None:
    _plant(tmp_path, OWN_NAMES)  # each one would leave a marker and exit loudly
    (tmp_path / "prog.py").write_text(CLEAN_KERNEL)
    proc = _run(tmp_path, *command)
    assert _executed(tmp_path) == [], proc.stderr
    if command[1] != "codegen":  # codegen has no command line: it only must not run the look-alike
        assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    "argv",
    [["-msafekernels", "-V"], ["-Im", "safekernels", "-V"], ["-m", "safekernels.cli"], ["-B", "-m", "ownership_check"]],
)
def test_the_startup_guard_covers_every_spelling_of_a_module_run(tmp_path: Path, argv: list[str]) -> None:
    _plant(tmp_path, OWN_NAMES)
    proc = _run(tmp_path, *argv)
    assert _executed(tmp_path) == [] and proc.returncode == 0, proc.stderr


def test_the_startup_guard_costs_other_interpreters_nothing(tmp_path: Path) -> None:
    probe = "import sys; print('safekernels' in sys.modules)"
    assert _run(tmp_path, "-c", probe).stdout == "False\n"
    assert _run(tmp_path, "-c", probe + "  # a comment naming safekernels").stdout == "False\n"


def test_module_run_detection_covers_the_guarded_packages() -> None:
    from safekernels.safe_sys_path import GUARDED_PACKAGES, _module_run_name

    assert set(GUARDED_PACKAGES) == {"safekernels", "ownership_check", "codegen", "mypy_plugin"}
    assert _module_run_name(["python", "-m", "safekernels", "check"]) == "safekernels"
    assert _module_run_name(["python", "-Im", "ownership_check"]) == "ownership_check"
    assert _module_run_name(["python", "script.py", "-m", "safekernels"]) is None


# B. `safekernels build k.py` ran a sibling `cuda.py` (the folder was on sys.path), then crashed.
def test_build_runs_only_what_the_file_imports(tmp_path: Path) -> None:
    _plant(tmp_path, ["cuda", "json", "numpy", "llvmlite", "inspect", "typing"])
    (tmp_path / "helpers.py").write_text("import constants\nSCALE = constants.SCALE\n")
    (tmp_path / "constants.py").write_text("SCALE = 2\n")
    (tmp_path / "k.py").write_text("import helpers\n" + CLEAN_KERNEL + "assert helpers.SCALE == 2\n")
    proc = _build(tmp_path, "k.py", "--emit", "llvm", "-o", "out", "--no-check", "-q")
    assert _executed(tmp_path) == [], proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "vecadd.ll").is_file()


def test_build_does_not_serve_siblings_the_file_never_imports(tmp_path: Path) -> None:
    (tmp_path / "unrelated.py").write_text("X = 1\n")
    (tmp_path / "k.py").write_text(CLEAN_KERNEL + "import importlib\nimportlib.import_module('unrelated')\n")
    proc = _build(tmp_path, "k.py", "--emit", "llvm", "-o", "out", "--no-check", "-q")
    assert proc.returncode == 1
    assert "k.py:" in proc.stderr and "ModuleNotFoundError" in proc.stderr


# C. A buggy file named `--select=W,.py` built with exit 0; `-k.py` failed with "unrecognized arguments".
@pytest.mark.parametrize("name", ["--select=W,.py", "-k.py", "--exit-zero.py"])
def test_file_names_that_look_like_options_are_checked(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(KERNEL)
    proc = _build(tmp_path, "--emit", "llvm", "-o", "out", "--", name)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "E0502" in proc.stdout and "the ownership checker reported errors; nothing emitted" in proc.stderr
    assert not (tmp_path / "out" / "vecadd.ll").exists()


def test_safekernels_run_passes_the_file_after_double_dash(tmp_path: Path) -> None:
    (tmp_path / "--exit-zero.py").write_text(KERNEL)
    proc = _run(tmp_path, "-m", "safekernels", "run", "--", "--exit-zero.py")
    assert proc.returncode == 1 and "has ownership errors; not running it" in proc.stderr


# D. `sys.exit(0)` at import time counted as a successful build (exit 0, no manifest).
@pytest.mark.parametrize(
    "call", ["sys.exit(0)", "sys.exit()", "raise SystemExit('done')", "exit(0)", "import os; os._exit(0)"]
)
def test_exit_at_import_is_a_failed_build(tmp_path: Path, call: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "k.py").write_text("import sys\n" + CLEAN_KERNEL + call + "\n")
    status, err = _build_here(tmp_path, capsys, "k.py", "--emit", "llvm", "-o", str(tmp_path / "out"))
    assert status == 1
    assert f"k.py:{CLEAN_KERNEL.count(chr(10)) + 2}: error while importing the file: it exited (status " in err
    assert "nothing built" in err
    assert not (tmp_path / "out" / "manifest.json").exists()


# E. A second build into one folder rewrote manifest.json: load_prebuilt saw only the second file's kernels.
def _kernel_named(name: str) -> str:
    return CLEAN_KERNEL.replace("vecadd", name)


def _names(out: Path) -> list[str]:
    return sorted(e["name"] for e in json.loads((out / "manifest.json").read_text())["kernels"])


def test_builds_into_one_folder_merge_their_manifests(tmp_path: Path) -> None:
    (tmp_path / "k.py").write_text(_kernel_named("first"))
    (tmp_path / "t.py").write_text(_kernel_named("second"))
    for name in ("k.py", "t.py", "k.py"):  # the rebuild of k.py replaces its own entry, keeps t.py's
        proc = _build(tmp_path, name, "--emit", "cubin", "-o", "out", "--no-check", "-q")
        assert proc.returncode == 0, proc.stderr
    assert _names(tmp_path / "out") == ["first", "second"]
    assert sorted(load_prebuilt(tmp_path / "out")) == ["first", "second"]


def test_concurrent_builds_into_one_folder_keep_every_kernel(tmp_path: Path) -> None:
    names = [f"k{i}" for i in range(4)]
    for name in names:
        (tmp_path / f"{name}.py").write_text(_kernel_named(name))
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "safekernels", "build", f"{n}.py", "--emit", "llvm", "-o", "out", "--no-check",
             "-q"], cwd=tmp_path, stderr=subprocess.PIPE, text=True)
        for n in names
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 0, err
    assert _names(tmp_path / "out") == names


def test_a_kernel_name_owned_by_another_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "k.py").write_text(CLEAN_KERNEL)
    (tmp_path / "t.py").write_text(CLEAN_KERNEL)
    assert _build(tmp_path, "k.py", "--emit", "llvm", "-o", "out", "--no-check", "-q").returncode == 0
    before = (tmp_path / "out" / "manifest.json").read_bytes()
    proc = _build(tmp_path, "t.py", "--emit", "llvm", "-o", "out", "--no-check", "-q")
    assert proc.returncode == 2
    assert "kernel `vecadd` would replace vecadd.ll, built there from" in proc.stderr
    assert (tmp_path / "out" / "manifest.json").read_bytes() == before


def test_a_foreign_manifest_in_the_output_folder_is_refused_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "k.py").write_text(CLEAN_KERNEL)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "manifest.json").write_text('{"name": "my-web-app"}')
    proc = _build(tmp_path, "k.py", "--emit", "llvm", "-o", "out", "--no-check", "-q")
    assert proc.returncode == 2 and "not a usable prebuilt folder" in proc.stderr
    assert (tmp_path / "out" / "manifest.json").read_text() == '{"name": "my-web-app"}'


# F. Write errors were tracebacks (and ENOSPC left a manifest that was not JSON); `__name__` with `../`
#    wrote outside -o; a bad `requires` had no file:line.
def test_a_file_size_limit_is_a_message_and_leaves_no_partial_manifest(tmp_path: Path) -> None:
    import resource

    (tmp_path / "k.py").write_text(CLEAN_KERNEL)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    proc = _build(tmp_path, "k.py", "--emit", "llvm", "-o", "out", "--no-check", "-q", preexec_fn=limit)
    assert proc.returncode == 2, proc.stderr
    assert "cannot write" in proc.stderr and "File too large" in proc.stderr and "Traceback" not in proc.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == []  # no partial file, no temporary


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EFBIG, errno.ENAMETOOLONG, errno.EIO])
def test_write_errors_keep_the_previous_manifest_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str], error: int) -> None:
    from safekernels.codegen import build_cli

    (tmp_path / "k.py").write_text(CLEAN_KERNEL)
    out = tmp_path / "out"
    argv = [str(tmp_path / "k.py"), "--emit", "llvm", "-o", str(out), "--no-check", "-q"]
    assert build_cli.main(argv) == 0
    before = (out / "manifest.json").read_bytes()

    def failing_replace(src: str, dst: str) -> None:
        raise OSError(error, os.strerror(error))

    monkeypatch.setattr(os, "replace", failing_replace)  # the rename that puts every output file in place
    assert build_cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("safekernels build: cannot write ") and os.strerror(error) in err
    assert (out / "manifest.json").read_bytes() == before
    assert not [p for p in out.iterdir() if p.name.startswith(".sk-build.")]


def test_ctrl_c_during_a_build_is_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from safekernels.codegen import build_cli

    (tmp_path / "k.py").write_text(CLEAN_KERNEL)

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(build_cli.Builder, "build_simt", interrupted)
    argv = [str(tmp_path / "k.py"), "--emit", "llvm", "-o", str(tmp_path / "out"), "--no-check", "-q"]
    assert build_cli.main(argv) == 130
    assert capsys.readouterr().err == (
        "safekernels build: interrupted; files already in the output folder are complete\n"
    )


@pytest.mark.parametrize("name", ["../escaped", "a/b", "x" * 300, "", ".."])
def test_a_kernel_name_cannot_leave_the_output_folder(tmp_path: Path, name: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "k.py").write_text(CLEAN_KERNEL + f"vecadd.name = {name!r}\n")
    status, err = _build_here(tmp_path, capsys, "k.py", "--emit", "llvm", "-o", str(tmp_path / "out"))
    assert status == 2, err
    assert "cannot name an output file" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.py", "out"]
    assert list((tmp_path / "out").iterdir()) == []


def test_a_bad_requires_is_reported_at_its_file_line_column(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "k.py").write_text(CLEAN_KERNEL.replace("block=256)", 'block=256, requires=("len(x) >= 1",))'))
    status, err = _build_here(tmp_path, capsys, "k.py", "--emit", "llvm", "-o", str(tmp_path / "out"))
    assert status == 1
    assert err.startswith(f"{tmp_path / 'k.py'}:8:44: SK012 vecadd: unknown identifier `x` in requires")


# G. Readers of on-disk data trusted file type and JSON shape.
@pytest.fixture(scope="module")
def prebuilt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("prebuilt")
    (root / "k.py").write_text(CLEAN_KERNEL)
    proc = _build(root, "k.py", "--emit", "cubin", "-o", "out", "--no-check", "-q")
    assert proc.returncode == 0, proc.stderr
    return root / "out"


def _copy(prebuilt: Path, where: Path) -> tuple[Path, dict[str, Any]]:
    where.mkdir()
    for path in prebuilt.iterdir():
        (where / path.name).write_bytes(path.read_bytes())
    return where, json.loads((where / "manifest.json").read_text())


def _deep(n: int) -> str:
    return "[" * n + "]" * n


MANIFEST_CASES: dict[str, Any] = {
    "list": "[]",
    "null": "null",
    "deep-100k": _deep(100_000),
    "deep-kernels": lambda m: json.dumps({**m, "kernels": json.loads(_deep(60))}),
    "duplicate-params": lambda m: _edit(m, "params", [["a", "slice", "f32"], ["a", "disjoint", "f32"]]),
    "unknown-kind": lambda m: _edit(m, "params", [["a", "slice", "f32"], ["b", "mystery", "f32"],
                                                    ["c", "disjoint", "f32"]]),
    "keyword-param": lambda m: _edit(m, "params", [["class", "slice", "f32"]]),
    "unknown-dtype": lambda m: _edit(m, "params", [["a", "slice", "f128"]]),
    "huge-number": lambda m: json.dumps(m).replace('"domain": 1', '"domain": 1e400'),
    "nan": lambda m: json.dumps(m).replace('"domain": 1', '"domain": NaN'),
    "long-int": lambda m: json.dumps(m).replace('"domain": 1', '"domain": ' + "9" * 5000),
    "string-block": lambda m: _edit(m, "contract", {**m["kernels"][0]["contract"], "block": "256"}),
    "bool-block": lambda m: _edit(m, "contract", {**m["kernels"][0]["contract"], "block": [True]}),
    "path-escape": lambda m: _edit(m, "files", {"cubin": "../k.py"}),
    "bad-plan": lambda m: _edit(m, "meta", {**m["kernels"][0]["meta"], "plan": _deep(5000)}),
    "entry-not-object": lambda m: json.dumps({**m, "kernels": [3]}),
    "no-version": lambda m: json.dumps({k: v for k, v in m.items() if k != "version"}),
    "bad-track": lambda m: _edit(m, "track", "gpu"),
    "invalid-utf8": b'{"version": 1, "kernels": [], "x": "\xff"}',
    "5000-entries": lambda m: json.dumps({**m, "kernels": m["kernels"] * 5000}),
}


def _edit(manifest: dict[str, Any], key: str, value: Any) -> str:
    kernels = [dict(manifest["kernels"][0], **{key: value})]
    return json.dumps({**manifest, "kernels": kernels})


@pytest.mark.parametrize("case", sorted(MANIFEST_CASES))
def test_malformed_manifests_are_one_prebuilt_error(prebuilt: Path, tmp_path: Path, case: str) -> None:
    folder, manifest = _copy(prebuilt, tmp_path / "p")
    text = MANIFEST_CASES[case]
    text = text(manifest) if callable(text) else text
    (folder / "manifest.json").write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(PrebuiltError, match="not a usable prebuilt folder"):
        load_prebuilt(folder)


def test_the_unedited_copy_loads(prebuilt: Path, tmp_path: Path) -> None:
    folder, _ = _copy(prebuilt, tmp_path / "p")
    assert list(load_prebuilt(folder)) == ["vecadd"]


@pytest.mark.parametrize("target", ["manifest.json", "vecadd.cubin"])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory", "huge"])
def test_file_kinds_in_a_prebuilt_folder(prebuilt: Path, tmp_path: Path, target: str, kind: str) -> None:
    folder, _ = _copy(prebuilt, tmp_path / "p")
    path = folder / target
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "directory":
        path.mkdir()
    else:
        with open(path, "wb") as handle:
            handle.truncate(600 * 1024 * 1024)  # sparse: larger than either cap, costs no disk
    result: list[BaseException] = []

    def load() -> None:
        try:
            load_prebuilt(folder)
        except BaseException as exc:
            result.append(exc)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), f"load_prebuilt hung on a {kind} {target}"
    assert len(result) == 1 and isinstance(result[0], PrebuiltError), result


# The codegen cache and the autotuner's records: anything malformed is a miss (rebuilt / re-tuned).
@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SAFEKERNELS_NO_CACHE", raising=False)
    (tmp_path / "cache" / "autotune").mkdir(parents=True)
    return tmp_path / "cache"


def _skc(key: str, header: dict[str, Any], payload: bytes = b"") -> bytes:
    from safekernels.codegen import cache

    body = {"format": cache.FORMAT_VERSION, "key": key, **header}
    body["sha256"] = cache._checksum(dict(body), payload)
    return cache.MAGIC + json.dumps(body).encode() + b"\n" + payload


CACHE_CASES: dict[str, Any] = {
    "deep-header": lambda key: _skc(key, {"lengths": [0, 0, 0], "meta": json.loads(_deep(900))}),
    "lengths-1e400": lambda key: _skc(key, {"lengths": [1e400, 0, 0], "meta": {}}).replace(b"Infinity", b"1e400"),
    "lengths-float": lambda key: _skc(key, {"lengths": [0.0, 0, 0], "meta": {}}),
    "lengths-str": lambda key: _skc(key, {"lengths": "000", "meta": {}}),
    "lengths-bool": lambda key: _skc(key, {"lengths": [False, False, False], "meta": {}}),
    "header-list": lambda key: b"SKCODEGEN2\n[]\n",
    "very-deep": lambda key: b"SKCODEGEN2\n" + _deep(200_000).encode() + b"\n",
}


@pytest.mark.parametrize("case", sorted(CACHE_CASES))
def test_malformed_codegen_cache_entries_are_misses(cache_dir: Path, case: str) -> None:
    from safekernels.codegen import cache

    key = "ab" * 32
    (cache_dir / f"{key}.skc").write_bytes(CACHE_CASES[case](key))
    assert cache.load(key) is None


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_codegen_cache_and_autotune_never_read_special_files(cache_dir: Path, kind: str) -> None:
    from safekernels.codegen import cache

    key = "cd" * 32
    paths = [cache_dir / f"{key}.skc", cache_dir / "autotune" / f"{key}.json"]
    for path in paths:
        if kind == "fifo":
            os.mkfifo(path)
        else:
            path.symlink_to("/dev/zero")
    results: list[object] = []
    thread = threading.Thread(
        target=lambda: results.extend([cache.load(key), TuningStore().load(key, 4)]), daemon=True
    )
    thread.start()
    thread.join(20)
    assert not thread.is_alive() and results == [None, None]


AUTOTUNE_CASES = {
    "deep": _deep(100_000),
    "best-1e400": '{"best": 1e400}',
    "best-nan": "{\"best\": NaN}",
    "best-true": '{"best": true}',
    "best-huge": '{"best": ' + "9" * 5000 + "}",
    "list": "[1, 2]",
    "best-str": '{"best": "0"}',
    "best-negative": '{"best": -1}',
    "binary": "\x00\xff",
}


@pytest.mark.parametrize("case", sorted(AUTOTUNE_CASES))
def test_malformed_autotune_records_are_misses(cache_dir: Path, case: str) -> None:
    key = "ef" * 32
    (cache_dir / "autotune" / f"{key}.json").write_text(AUTOTUNE_CASES[case], encoding="latin-1")
    assert TuningStore().load(key, 4) is None


def test_a_valid_autotune_record_is_read(cache_dir: Path) -> None:
    (cache_dir / "autotune" / ("01" * 32 + ".json")).write_text('{"best": 2, "timings": [1.5, 2.0]}')
    assert TuningStore().load("01" * 32, 4) == 2


# R. The autotune key ignored the kernel's `@simt.device` helpers (and theirs): a stale winner was reused.
def test_the_autotune_key_follows_device_helpers_transitively(tmp_path: Path) -> None:
    import importlib.util

    from safekernels.autotune.tuner import tuning_key

    def key_for(inner_body: str) -> str:
        path = tmp_path / f"k{abs(hash(inner_body))}.py"
        path.write_text(
            "from safekernels import simt\n"
            "from safekernels.dtypes import f32\n"
            "from safekernels.simt import DisjointSlice, Slice, thread\n\n"
            f"@simt.device\ndef inner(x: f32) -> f32:\n    return {inner_body}\n\n"
            "@simt.device\ndef outer(x: f32) -> f32:\n    return inner(x)\n\n"
            "@simt.kernel\n@simt.launch_contract(block=64)\n"
            "def k(a: Slice[f32], c: DisjointSlice[f32]) -> None:\n"
            "    idx = thread.index_1d()\n    i = idx.get()\n"
            "    if (out := c.get_mut(idx)) is not None:\n        out.set(outer(a[i]))\n"
        )
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return tuning_key("simt", module.k.py_function, "[]", (), sk.Device.cpu())

    assert key_for("x * 2.0") == key_for("x * 2.0")
    assert key_for("x * 2.0") != key_for("x * 3.0")
