"""`safekernels doctor`: a line per check, a verdict, exit 1 only when a required check fails, never a crash.

Broken installs are simulated the way Python sees them: a `None` in `sys.modules` makes `import_module` raise
ImportError, and a fake `cuda.bindings.driver` stands in for a driver that loads but misbehaves.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from safekernels import doctor
from safekernels.doctor import CheckResult, run_checks, verdict


def _by_name(results: list[CheckResult]) -> dict[str, CheckResult]:
    return {r.name: r for r in results}


@pytest.fixture(autouse=True)
def _cpu_and_private_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SAFEKERNELS_NO_CACHE", raising=False)
    monkeypatch.delenv("SAFEKERNELS_DEVICE", raising=False)


def test_every_check_reports_one_line_and_the_smoke_test_runs(tmp_path: Path) -> None:
    results = run_checks()
    names = [r.name for r in results]
    assert names == [name for name, _, _ in doctor.CHECKS]
    found = _by_name(results)
    assert found["python"].status == "ok"
    assert found["llvmlite"].status == "ok" and "NVPTX" in found["llvmlite"].detail
    assert found["smoke compile"].status == "ok" and "cubin" in found["smoke compile"].detail
    assert found["smoke run"].status == "ok" and "1000/1000" in found["smoke run"].detail
    assert str(tmp_path / "cache") in found["disk cache"].detail
    code, text = verdict(results)
    assert code == 0 and text.startswith("ready")


def test_plain_output_has_marks_hints_and_a_verdict_when_not_a_tty() -> None:
    env = dict(os.environ, SAFEKERNELS_DEVICE="cpu", PYTHONIOENCODING="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "safekernels", "doctor"], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert "\033[" not in proc.stdout  # no colour when not a terminal
    check_lines = [line for line in lines if line[:1] in ("✓", "✗", "!")]
    assert len(check_lines) == len(doctor.CHECKS)
    assert any(line.startswith("✓ executor") and "CPU executor" in line for line in check_lines)
    assert lines[-1].startswith("verdict: ready (CPU-executor mode")


def test_ascii_marks_when_the_terminal_cannot_encode_them() -> None:
    env = dict(os.environ, SAFEKERNELS_DEVICE="cpu", PYTHONIOENCODING="ascii")
    proc = subprocess.run(
        [sys.executable, "-m", "safekernels", "doctor"], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n+ ") >= 5


def test_missing_nvjitlink_fails_a_required_check_with_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cuda.bindings.nvjitlink", None)
    results = run_checks([c for c in doctor.CHECKS if c[0] in ("nvJitLink", "mypy plugin")])
    nvjitlink = _by_name(results)["nvJitLink"]
    assert nvjitlink.status == "fail" and "not importable" in nvjitlink.detail
    assert "nvidia-nvjitlink" in nvjitlink.hint
    code, text = verdict(results)
    assert code == 1 and "nvJitLink" in text


def test_missing_llvmlite_and_libcst_fail_without_crashing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llvmlite.binding", None)
    monkeypatch.setitem(sys.modules, "libcst", None)
    results = _by_name(run_checks([c for c in doctor.CHECKS if c[0] in ("llvmlite", "checker")]))
    assert results["llvmlite"].status == "fail" and "llvmlite" in results["llvmlite"].hint
    assert results["checker"].status == "fail" and "libcst" in results["checker"].hint


def test_missing_optional_parts_are_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mypy.version", None)
    monkeypatch.setenv("SAFEKERNELS_LIBDEVICE", "/nonexistent/libdevice.10.bc")
    from safekernels.codegen import libdevice

    libdevice.find_libdevice.cache_clear()
    try:
        results = run_checks([c for c in doctor.CHECKS if c[0] in ("libdevice", "mypy plugin")])
    finally:
        libdevice.find_libdevice.cache_clear()
    found = _by_name(results)
    assert found["libdevice"].status == "warn" and "nvidia-nvvm" in found["libdevice"].hint
    assert found["mypy plugin"].status == "warn"
    assert verdict(results)[0] == 0


def _fake_driver(**overrides: Any) -> types.ModuleType:
    class CUresult:
        CUDA_SUCCESS = 0
        CUDA_ERROR_NO_DEVICE = types.SimpleNamespace(name="CUDA_ERROR_NO_DEVICE")

    class CUdevice_attribute:  # mirrors cuda.bindings' name
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76

    fake = types.ModuleType("cuda.bindings.driver")
    fake.CUresult = CUresult  # type: ignore[attr-defined]
    fake.CUdevice_attribute = CUdevice_attribute  # type: ignore[attr-defined]
    fake.cuInit = lambda flags: (0,)  # type: ignore[attr-defined]
    fake.cuDriverGetVersion = lambda: (0, 12040)  # type: ignore[attr-defined]
    fake.cuDeviceGetCount = lambda: (0, 1)  # type: ignore[attr-defined]
    fake.cuDeviceGet = lambda i: (0, i)  # type: ignore[attr-defined]
    fake.cuDeviceGetName = lambda n, d: (0, b"Fake T4\0\0")  # type: ignore[attr-defined]
    fake.cuDeviceGetAttribute = lambda a, d: (0, 7 if a == 75 else 5)  # type: ignore[attr-defined]
    fake.cuDeviceTotalMem = lambda d: (0, 16 * 2**30)  # type: ignore[attr-defined]
    for name, value in overrides.items():
        setattr(fake, name, value)
    return fake


_GPU_CHECKS = ("driver", "GPUs", "executor")


def test_driver_that_raises_on_init_is_a_warning_and_cpu_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(flags: int) -> tuple[int]:
        raise RuntimeError("libcuda.so.1: cannot open shared object file")

    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", _fake_driver(cuInit=boom))
    results = run_checks([c for c in doctor.CHECKS if c[0] in _GPU_CHECKS])
    found = _by_name(results)
    assert found["driver"].status == "warn" and "libcuda" in found["driver"].detail
    assert "CPU executor" in found["executor"].detail
    assert verdict(results) == (0, "ready (CPU-executor mode, 2 warning(s))")


def test_cuinit_error_and_no_device(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake_driver()
    fake.cuInit = lambda flags: (fake.CUresult.CUDA_ERROR_NO_DEVICE,)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", fake)
    found = _by_name(run_checks([c for c in doctor.CHECKS if c[0] in _GPU_CHECKS]))
    assert "CUDA_ERROR_NO_DEVICE" in found["driver"].detail and found["driver"].status == "warn"
    assert found["GPUs"].status == "warn"


def test_old_gpu_and_old_driver_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", _fake_driver())
    found = _by_name(run_checks([c for c in doctor.CHECKS if c[0] in _GPU_CHECKS]))
    assert "CUDA 12.4" in found["driver"].detail
    assert found["driver"].status == "warn" and "needs a CUDA 13 driver" in found["driver"].detail
    assert found["GPUs"].detail == "0: Fake T4 (sm_75, 16 GiB)" and found["GPUs"].status == "warn"
    assert "CPU executor" in found["executor"].detail


def test_driver_function_raising_midway_is_isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(n: int, d: int) -> Any:
        raise OSError("driver went away")

    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", _fake_driver(cuDeviceGetName=broken))
    found = _by_name(run_checks([c for c in doctor.CHECKS if c[0] in _GPU_CHECKS]))
    assert found["GPUs"].status == "warn" and "driver went away" in found["GPUs"].detail
    assert found["executor"].status == "ok"


def test_forcing_the_gpu_without_one_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFEKERNELS_DEVICE", "gpu")
    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", None)
    results = run_checks([c for c in doctor.CHECKS if c[0] in _GPU_CHECKS])
    assert _by_name(results)["executor"].status == "fail"
    assert verdict(results)[0] == 1


def test_unwritable_or_corrupt_cache_is_a_warning(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cache = tmp_path / "c"
    cache.mkdir()
    (cache / "abc.skc").write_bytes(b"garbage")
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(cache))
    (result,) = run_checks([c for c in doctor.CHECKS if c[0] == "disk cache"])
    assert result.status == "warn" and "1 entries" in result.detail and "1 unreadable" in result.detail
    monkeypatch.setenv("SAFEKERNELS_NO_CACHE", "1")
    (result,) = run_checks([c for c in doctor.CHECKS if c[0] == "disk cache"])
    assert result.status == "ok" and "disabled" in result.detail


def test_a_crashing_check_becomes_a_failed_line() -> None:
    def crashes(_: doctor.Findings) -> doctor.Outcome:
        raise ZeroDivisionError("boom")

    results = run_checks([("custom", True, crashes), ("python", True, doctor.check_python)])
    assert results[0].status == "fail" and "ZeroDivisionError: boom" in results[0].detail
    assert results[1].status == "ok"


def test_json_output() -> None:
    env = dict(os.environ, SAFEKERNELS_DEVICE="cpu")
    proc = subprocess.run(
        [sys.executable, "-m", "safekernels", "doctor", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and data["ok"] is True
    assert {c["name"] for c in data["checks"]} == {name for name, _, _ in doctor.CHECKS}


def test_stale_editable_install_of_the_plugin_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mypy_plugin", types.ModuleType("mypy_plugin"))  # no __file__, no plugin
    (result,) = run_checks([c for c in doctor.CHECKS if c[0] == "mypy plugin"])
    assert result.status == "warn" and "namespace package" in result.detail and "pip install -e ." in result.hint


def test_mypy_imports_line_follows_the_current_projects_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypy's own module finder decides: found through `mypy_path` -> ok; hidden (no site-packages, as with an
    editable install through an import hook) -> a warning whose hint names the install modes mypy can follow."""
    src = Path(doctor.__file__).resolve().parents[1]
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    (project / "pyproject.toml").write_text(
        f'[tool.mypy]\nplugins = ["mypy_plugin"]\nmypy_path = "{src.as_posix()}"\nno_site_packages = true\n'
    )
    status, detail, _ = doctor.check_mypy_imports(doctor.Findings())
    assert status == "ok", detail
    assert str(src / "safekernels") in detail and "plugins = mypy_plugin" in detail
    (project / "pyproject.toml").write_text("[tool.mypy]\nno_site_packages = true\n")
    # a fresh interpreter: mypy's finder reads process state (sys.path, its caches) that earlier tests of this
    # session may have changed; a user runs `safekernels doctor` in a process of its own
    # `make` installs a `.pth` naming src/ (so mypy can follow an editable install); a user whose install mypy
    # cannot follow has no such path entry: take it out of the probe's path once doctor is imported
    probe = (
        "import json, os, sys\nfrom safekernels import doctor\n"
        f"sys.path[:] = [p for p in sys.path if os.path.realpath(p or '.') != {str(src)!r}]\n"
        "print(json.dumps(list(doctor.check_mypy_imports(doctor.Findings()))))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONPATH")}
    result = subprocess.run([sys.executable, "-c", probe], cwd=project, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    status, detail, hint = json.loads(result.stdout.strip().splitlines()[-1])
    assert status == "warn" and "cannot find `safekernels`" in detail
    assert "editable_mode=strict" in hint and "make setup" in hint


def test_forcing_the_gpu_without_one_names_the_variable_not_device_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from safekernels.errors import DeviceError
    from safekernels.runtime import device

    monkeypatch.setattr(device, "gpu_available", lambda: False)
    monkeypatch.setenv("SAFEKERNELS_DEVICE", "gpu")
    with pytest.raises(DeviceError) as caught:
        device.Device.default()
    message = str(caught.value)
    assert message.startswith("SAFEKERNELS_DEVICE=gpu, but no CUDA GPU is available")
    assert "set it to cpu" in message and "Device.default()" not in message
