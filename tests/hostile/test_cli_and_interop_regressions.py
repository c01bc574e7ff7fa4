"""Regression tests for the command line's edges and foreign-array interop (issue 22, classes M, N, O, P, Q).

M: an exotic PEP 263 codec was an internal error; N: output-stream failures were tracebacks or "internal
error", and `--format github` copied an ESC from a file name; O: `safekernels new` tracebacked or wrote an
invalid pyproject.toml; P: `safekernels demo` crashed on undecodable example output; Q: a malformed
`__cuda_array_interface__` raised KeyError and a `__dlpack__` without `__dlpack_device__` AttributeError.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hostile_corpus import KERNEL

import safekernels as sk
from safekernels.scaffold import create_project

TIMEOUT = 120
SK = [sys.executable, "-m", "safekernels"]


def _run(argv: list[str], cwd: Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, **kwargs)


# M. `# coding: rot13` (or hex, base64, zlib, uu, bz2, quopri) was an internal error, exit 2.
@pytest.mark.parametrize("codec", ["rot13", "hex", "base64", "zlib", "uu", "bz2", "quopri", "utf-16", "utf_32"])
@pytest.mark.parametrize("line", [1, 2])
def test_exotic_codecs_are_e0001_like_python(tmp_path: Path, codec: str, line: int,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from ownership_check.cli import main

    source = ("#!/usr/bin/env python\n" if line == 2 else "") + f"# -*- coding: {codec} -*-\n" + KERNEL
    path = tmp_path / "enc.py"
    path.write_bytes(source.encode("ascii"))
    python = _run([sys.executable, str(path)], tmp_path)
    assert f"SyntaxError: encoding problem: {codec}" in python.stderr  # what Python itself says
    monkeypatch.chdir(tmp_path)
    assert main(["enc.py", "--no-cache", "--format", "concise"]) == 1
    out = capsys.readouterr()
    assert out.out == f"enc.py:{line}:1: E0001 syntax error: encoding problem: {codec}\n", out.err


def test_text_codecs_that_python_accepts_still_decode(tmp_path: Path) -> None:
    for codec in ("latin-1", "cp1252", "ascii"):
        (tmp_path / "enc.py").write_bytes(f"# coding: {codec}\n{KERNEL}".encode("ascii"))
        proc = _run([sys.executable, "-m", "ownership_check", "enc.py", "--no-cache", "--format", "concise"],
                    tmp_path)
        assert proc.stdout == "enc.py:18:36: E0502 cannot borrow `c` as mutable because it is also borrowed as " \
                              "immutable\n", (codec, proc.stdout, proc.stderr)


# N. Output-stream failures.
def _closed_pipe() -> int:
    """A pipe whose reader is already gone: every write raises EPIPE (what `| head -1` becomes)."""
    read, write = os.pipe()
    os.close(read)
    return write


OUTPUT_COMMANDS = {
    "version": [*SK, "-V"],
    "help": [*SK, "--help"],
    "explain": [*SK, "explain", "E0502"],
    "doctor": [*SK, "doctor"],
    "check": [sys.executable, "-m", "ownership_check", "bad.py", "--no-cache"],
    "safekernels-check": [*SK, "check", "bad.py", "--no-cache"],
}


@pytest.mark.parametrize("name", sorted(OUTPUT_COMMANDS))
def test_a_closed_pipe_is_a_quiet_exit_141(tmp_path: Path, name: str) -> None:
    (tmp_path / "bad.py").write_text(KERNEL)
    write = _closed_pipe()
    try:
        proc = subprocess.run(OUTPUT_COMMANDS[name], cwd=tmp_path, stdout=write, stderr=subprocess.PIPE,
                              text=True, timeout=TIMEOUT, env={**os.environ, "SAFEKERNELS_DEVICE": "cpu"})
    finally:
        os.close(write)
    assert proc.returncode == 141, proc.stderr
    assert proc.stderr == ""


@pytest.mark.parametrize("name", ["version", "explain", "check", "safekernels-check"])
@pytest.mark.parametrize("how", ["dev-full", "closed"])
def test_an_unwritable_stdout_is_one_line_and_status_2(tmp_path: Path, name: str, how: str) -> None:
    (tmp_path / "bad.py").write_text(KERNEL)
    if how == "dev-full":
        with open("/dev/full", "w") as full:
            proc = subprocess.run(OUTPUT_COMMANDS[name], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
                                  text=True, timeout=TIMEOUT)
        reason = "No space left on device"
    else:
        proc = subprocess.run(OUTPUT_COMMANDS[name], cwd=tmp_path, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, timeout=TIMEOUT,
                              preexec_fn=lambda: os.close(1))
        reason = "standard output is closed"
    assert proc.returncode == 2, proc.stderr
    (line,) = proc.stderr.splitlines()
    assert line.endswith(f": error: cannot write the output: {reason}")
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr


def test_github_format_escapes_control_characters_of_file_names(tmp_path: Path) -> None:
    name = "a\x1b[31mred\x07\u2028b.py"
    (tmp_path / name).write_text(KERNEL)
    proc = _run([sys.executable, "-m", "ownership_check", ".", "--no-cache", "--format", "github"], tmp_path)
    assert proc.returncode == 1
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout and "\u2028" not in proc.stdout
    assert proc.stdout.startswith("::error file=a\\x1b[31mred\\x07\\u2028b.py,line=17,col=36,")


# O. `safekernels new`.
@pytest.mark.parametrize(
    ("make", "argument", "message"),
    [
        (lambda root: (root / "taken").write_text("x"), "taken", "taken exists and is not a directory"),
        (lambda root: (root / "file.txt").write_text("x"), "file.txt/proj", "lies below file.txt, which is not"),
        (lambda root: None, "/proc/newproject", "cannot write /proc/newproject"),
        (lambda root: None, "x" * 300, "the project name is 300 characters long; use at most 100"),
        (lambda root: None, 'we"ird', "'we\"ird' is not a valid project name"),
        (lambda root: None, "a b", "'a b' is not a valid project name"),
        (lambda root: None, "tail-", "'tail-' is not a valid project name"),
        (lambda root: (root / "full").mkdir() or (root / "full" / "x").write_text(""), "full",
         "full exists and is not empty"),
    ],
    ids=["existing-file", "under-a-file", "proc", "300-chars", "quote", "space", "trailing-dash", "not-empty"],
)
def test_new_refuses_with_a_message(tmp_path: Path, make: Any, argument: str, message: str) -> None:
    make(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    proc = _run([*SK, "new", "--", argument], tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("safekernels new: ") and message in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("name", ["ok", "My.Project_2", "a-b", "x" * 100])
def test_new_writes_valid_toml_for_every_accepted_name(tmp_path: Path, name: str) -> None:
    create_project(tmp_path / name, name, "simt")
    data = tomllib.loads((tmp_path / name / "pyproject.toml").read_text())
    assert data["project"]["name"] == name


# P. `safekernels demo` and undecodable example output.
def test_demo_reports_an_example_that_prints_undecodable_bytes(tmp_path: Path) -> None:
    examples = tmp_path / "examples"
    examples.mkdir()
    (examples / "binary.py").write_text(
        "import sys\nsys.stdout.buffer.write(b'\\xff\\xfe\\x80 raw bytes\\n')\nprint('PASSED')\n"
    )
    proc = _run([*SK, "demo", "--examples", str(examples)], tmp_path,
                env={**os.environ, "SAFEKERNELS_DEVICE": "cpu"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "-- binary.py" in proc.stdout and ": ok" in proc.stdout and "\ufffd\ufffd\ufffd raw bytes" in proc.stdout


# Q. Malformed foreign arrays.
class _Interface:
    def __init__(self, interface: Any) -> None:
        self.__cuda_array_interface__ = interface


_BASE = {"data": (0, False), "shape": (4,), "typestr": "<f4", "version": 3}
INTERFACES: dict[str, Any] = {
    **{f"no-{key}": {k: v for k, v in _BASE.items() if k != key} for key in ("data", "shape", "typestr")},
    "not-a-dict": [1, 2],
    "data-str": {**_BASE, "data": "0x0"},
    "data-short": {**_BASE, "data": (0,)},
    "shape-negative": {**_BASE, "shape": (-4,)},
    "shape-float": {**_BASE, "shape": (4.0,)},
    "typestr-int": {**_BASE, "typestr": 4},
    "typestr-garbage": {**_BASE, "typestr": "<q9"},
    "strides-wrong-rank": {**_BASE, "strides": (4, 4)},
    "stream-str": {**_BASE, "stream": "default"},
    "pointer-past-64-bits": {**_BASE, "data": (1 << 70, False)},
}


@pytest.mark.parametrize("case", sorted(INTERFACES))
def test_malformed_cuda_array_interfaces_are_type_or_value_errors(case: str) -> None:
    with pytest.raises((TypeError, ValueError)) as info:
        sk.as_buffer(_Interface(INTERFACES[case]), sk.Device.cpu())
    assert type(info.value) in (TypeError, ValueError) and str(info.value)
    if case.startswith("no-"):
        assert f"missing '{case[3:]}'" in str(info.value)


class _DLPackWithoutDevice:
    def __dlpack__(self, stream: Any = None) -> Any:
        raise AssertionError("never called: the device is asked first")


class _DLPackBadDevice(_DLPackWithoutDevice):
    def __dlpack_device__(self) -> Any:
        return "cuda:0"


@pytest.mark.parametrize("cls", [_DLPackWithoutDevice, _DLPackBadDevice])
def test_dlpack_without_a_usable_device_is_a_type_error(cls: type) -> None:
    with pytest.raises(TypeError, match="__dlpack_device__"):
        sk.as_buffer(cls())


def test_json_output_is_unaffected_by_the_output_guard(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(KERNEL)
    proc = _run([sys.executable, "-m", "ownership_check", "bad.py", "--no-cache", "--format", "json"], tmp_path)
    assert proc.returncode == 1 and json.loads(proc.stdout)["diagnostics"][0]["code"] == "E0502"


# doctor reads the cache folder too: a FIFO or a `/dev/zero` link there is counted, never opened for reading.
def test_doctor_scans_a_cache_holding_special_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from safekernels import doctor

    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SAFEKERNELS_NO_CACHE", raising=False)
    os.mkfifo(tmp_path / "fifo.skc")
    (tmp_path / "zero.skc").symlink_to("/dev/zero")
    (tmp_path / "dangling.skc").symlink_to(tmp_path / "missing")
    results: list[Any] = []
    thread = threading.Thread(target=lambda: results.extend(doctor.run_checks(
        [c for c in doctor.CHECKS if c[0] == "disk cache"])), daemon=True)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "doctor hung on a FIFO in the cache"
    (result,) = results
    assert result.status == "warn" and "3 entries, 0.0 MiB), 3 unreadable" in result.detail


def test_doctor_reports_the_startup_guard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import site

    from safekernels import doctor
    from safekernels.safe_sys_path import PTH_LINE

    monkeypatch.setattr(site, "getsitepackages", lambda: [str(tmp_path)])
    monkeypatch.setattr(site, "getusersitepackages", lambda: str(tmp_path / "user"))
    (missing,) = doctor.run_checks([c for c in doctor.CHECKS if c[0] == "module guard"])
    assert missing.status == "warn" and "is not installed" in missing.detail
    (tmp_path / "safekernels-module-guard.pth").write_text(PTH_LINE)
    (present,) = doctor.run_checks([c for c in doctor.CHECKS if c[0] == "module guard"])
    assert present.status == "ok" and str(tmp_path) in present.detail


def test_dlpack_survives_another_library_retyping_the_shared_capsule_functions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Libraries set `argtypes` on the process-wide `ctypes.pythonapi.PyCapsule_*` objects (`jax.ffi.pycapsule`
    does); the DLPack export and import must not depend on what the last one set."""
    import ctypes

    import numpy as np

    from safekernels.runtime import interop

    for name in ("PyCapsule_New", "PyCapsule_IsValid", "PyCapsule_GetPointer", "PyCapsule_SetName"):
        function = getattr(ctypes.pythonapi, name)
        monkeypatch.setattr(function, "argtypes", [ctypes.py_object])
        monkeypatch.setattr(function, "restype", ctypes.c_int)
    stream = sk.Device.cpu().new_stream()
    buffer = sk.to_device(np.arange(5, dtype=np.float32), stream)


    class Exporter:  # a foreign array handing over the capsule safekernels made
        def __dlpack__(self, stream: Any = None) -> Any:
            return interop.to_dlpack(buffer)

        def __dlpack_device__(self) -> tuple[int, int]:
            return (1, 0)  # kDLCPU

    back = sk.as_buffer(Exporter())
    np.testing.assert_array_equal(back.to_numpy(stream), np.arange(5, dtype=np.float32))
