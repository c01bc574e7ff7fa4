"""`safekernels doctor`: is this machine ready to check, compile and run kernels?  One line per check.

Every check is a small function that returns `(status, detail, hint)`; `run_checks` calls each one inside its
own `try`, so a broken CUDA install (a driver library that will not load, bindings that raise on import, a
`cuInit` that fails) turns into a `✗` or `!` line with a fix hint, never into a traceback.  Later checks read
what earlier ones found from a shared `Findings` record (the GPU count decides where the smoke test runs), so
the order in `CHECKS` matters and a failed early check leaves safe defaults behind.

Imports happen through `importlib.import_module` inside the checks, so that tests (and broken environments)
that make an import fail through `sys.modules` are seen exactly as a user's machine would show them.

Required checks (exit status 1 when one fails) are what every user needs: Python, llvmlite with NVPTX,
cuda-bindings, nvJitLink, the ownership checker's parser, and the smoke test (compile to cubin, then run on
the GPU, or on the CPU executor when there is none).  A missing driver or GPU is not a failure: the CPU
executor runs the same kernels.  libdevice, mypy (the plugin imports, and mypy run from the current folder
resolves `safekernels`), the cache (scanned without opening a FIFO or device that sits in it) and the startup
guard of `python -m safekernels` (`safekernels-module-guard.pth`, see `safe_sys_path`) are warnings.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import site
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO

Status = Literal["ok", "warn", "fail"]
Outcome = tuple[Status, str, str]  # (status, detail, fix hint; "" when there is nothing to fix)

_MIN_PYTHON = (3, 11)
_MIN_LLVMLITE = (0, 50)
_NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
_MIN_CC = (8, 0)


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: Status
    detail: str
    hint: str
    required: bool

    @property
    def failed_required(self) -> bool:
        return self.required and self.status == "fail"


@dataclass
class Findings:
    """What earlier checks learned, for later ones (safe defaults when a check failed)."""

    driver_loaded: bool = False
    driver_version: int | None = None  # e.g. 13000 for CUDA 13.0
    gpus: list[dict[str, Any]] = field(default_factory=list)
    executor: str = "cpu"  # where Device.default() runs kernels: "cpu" or "gpu"
    arch: str = "sm_90"  # the target the smoke test compiles for
    compiled: bool = False


def _version_tuple(text: str) -> tuple[int, ...]:
    parts: list[int] = []
    for piece in text.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def _cuda_version_text(version: int) -> str:
    return f"{version // 1000}.{(version % 1000) // 10}"


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {lines[0] if lines else ''}".rstrip(": ")
    return text if len(text) <= 110 else text[:107] + "..."


# -- the checks, in order ----------------------------------------------------------------------------------


def check_python(_: Findings) -> Outcome:
    version = platform.python_version()
    where = f"{version} ({sys.executable})"
    if sys.version_info[:2] < _MIN_PYTHON:
        return "fail", where, "safekernels needs Python >= 3.11: create the venv with a newer python3"
    return "ok", where, ""


def check_llvmlite(_: Findings) -> Outcome:
    llvmlite = importlib.import_module("llvmlite")
    version = str(getattr(llvmlite, "__version__", "unknown"))
    binding: Any = importlib.import_module("llvmlite.binding")
    binding.initialize_all_targets()
    binding.initialize_all_asmprinters()
    try:
        binding.Target.from_triple(_NVPTX_TRIPLE)
    except Exception as exc:
        return (
            "fail",
            f"{version}, but the NVPTX target is not registered ({_one_line(exc)})",
            "this llvmlite build lacks the NVPTX backend: `pip install --force-reinstall 'llvmlite>=0.50'` "
            "(the PyPI wheels include it)",
        )
    if _version_tuple(version) < _MIN_LLVMLITE:
        return "fail", f"{version} (too old)", "pip install 'llvmlite>=0.50'"
    return "ok", f"{version}, NVPTX target registered", ""


def check_cuda_bindings(_: Findings) -> Outcome:
    bindings = importlib.import_module("cuda.bindings")
    return "ok", str(getattr(bindings, "__version__", "unknown")), ""


def check_nvjitlink(_: Findings) -> Outcome:
    nvjitlink: Any = importlib.import_module("cuda.bindings.nvjitlink")
    try:
        major, minor = nvjitlink.version()
    except Exception as exc:
        return (
            "fail",
            f"the nvJitLink library does not load ({_one_line(exc)})",
            "pip install 'nvidia-nvjitlink>=12.6' (same CUDA major version as cuda-bindings)",
        )
    return "ok", f"nvJitLink {major}.{minor} (PTX -> cubin, no GPU needed)", ""


def check_libdevice(_: Findings) -> Outcome:
    libdevice = importlib.import_module("safekernels.codegen.libdevice")
    path = libdevice.find_libdevice()
    if path is None:
        return (
            "warn",
            "libdevice.10.bc not found: kernels that call math.* will not compile",
            "pip install nvidia-nvvm, or set SAFEKERNELS_LIBDEVICE=/path/to/libdevice.10.bc, "
            "or allow approximate math with SAFEKERNELS_APPROX_MATH=1",
        )
    return "ok", str(path), ""


def check_driver(found: Findings) -> Outcome:
    try:
        driver: Any = importlib.import_module("cuda.bindings.driver")
        (err,) = driver.cuInit(0)
    except Exception as exc:
        return (
            "warn",
            f"no CUDA driver ({_one_line(exc)}); kernels run on the CPU executor",
            "for GPU runs install the NVIDIA driver (nvidia-smi must work); CPU-only use needs nothing",
        )
    if err != driver.CUresult.CUDA_SUCCESS:
        name = getattr(err, "name", str(err))
        found.driver_loaded = True
        _, version = driver.cuDriverGetVersion()
        found.driver_version = int(version)
        return (
            "warn",
            f"driver CUDA {_cuda_version_text(int(version))} loaded but cuInit failed: {name}",
            "CUDA_ERROR_NO_DEVICE: no GPU visible (check CUDA_VISIBLE_DEVICES, container --gpus); "
            "other errors: reboot or reinstall the driver (nvidia-smi should list the GPU)",
        )
    found.driver_loaded = True
    _, version = driver.cuDriverGetVersion()
    found.driver_version = int(version)
    text = f"driver supports CUDA {_cuda_version_text(found.driver_version)}"
    too_old = _driver_too_old(found.driver_version)
    if too_old:
        return (
            "warn",
            f"{text}; {too_old}",
            f"update the NVIDIA driver, or install cuda-bindings and nvidia-nvjitlink "
            f"{found.driver_version // 1000}.x to match it",
        )
    return "ok", text, ""


def _installed_cuda_versions() -> list[tuple[str, str]]:
    """(label, version) of the CUDA libraries this environment would use (the ones that import)."""
    versions = []
    try:
        bindings = importlib.import_module("cuda.bindings")
        versions.append(("cuda-bindings", str(getattr(bindings, "__version__", ""))))
    except Exception:
        pass
    try:
        nvjitlink: Any = importlib.import_module("cuda.bindings.nvjitlink")
        versions.append(("nvJitLink", ".".join(str(part) for part in nvjitlink.version())))
    except Exception:
        pass
    return versions


def _driver_too_old(driver_version: int) -> str:
    """Why the driver is older than the CUDA libraries in this environment ("" when it is not)."""
    driver_major = driver_version // 1000
    problems = []
    for label, version in _installed_cuda_versions():
        major = _version_tuple(version)[:1]
        if major and major[0] > driver_major:
            problems.append(f"{label} {version} needs a CUDA {major[0]} driver")
    return "; ".join(problems)


def check_gpus(found: Findings) -> Outcome:
    if not found.driver_loaded:
        return "warn", "none (no driver): CPU-executor mode", "see the driver line"
    driver: Any = importlib.import_module("cuda.bindings.driver")
    err, count = driver.cuDeviceGetCount()
    if err != driver.CUresult.CUDA_SUCCESS or count == 0:
        return "warn", "none found: CPU-executor mode", "check CUDA_VISIBLE_DEVICES and `nvidia-smi`"
    described = []
    old = []
    attr = driver.CUdevice_attribute
    for ordinal in range(int(count)):
        _, dev = driver.cuDeviceGet(ordinal)
        _, raw = driver.cuDeviceGetName(256, dev)
        name = bytes(raw).split(b"\0", 1)[0].decode(errors="replace")
        _, major = driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
        _, minor = driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
        _, memory = driver.cuDeviceTotalMem(dev)
        gpu = {"ordinal": ordinal, "name": name, "cc": (int(major), int(minor)), "memory": int(memory)}
        found.gpus.append(gpu)
        described.append(f"{ordinal}: {name} (sm_{major}{minor}, {int(memory) / 2**30:.0f} GiB)")
        if (int(major), int(minor)) < _MIN_CC:
            old.append(name)
    detail = "; ".join(described)
    if old:
        return (
            "warn",
            detail,
            f"codegen targets sm_80 and newer; {', '.join(old)} can only use the CPU executor",
        )
    return "ok", detail, ""


def check_executor(found: Findings) -> Outcome:
    forced = os.environ.get("SAFEKERNELS_DEVICE", "").strip().lower()
    usable = [g for g in found.gpus if tuple(g["cc"]) >= _MIN_CC]
    if forced not in ("", "cpu", "gpu"):
        return (
            "fail",
            f"SAFEKERNELS_DEVICE={forced!r} is not valid",
            "set SAFEKERNELS_DEVICE to cpu or gpu, or unset",
        )
    if forced == "gpu" and not usable:
        return (
            "fail",
            "SAFEKERNELS_DEVICE=gpu but no usable GPU",
            "fix the driver/GPU lines above, or unset SAFEKERNELS_DEVICE to fall back to the CPU executor",
        )
    if forced == "cpu" or not usable:
        found.executor = "cpu"
        why = "forced by SAFEKERNELS_DEVICE=cpu" if forced == "cpu" else "no GPU"
        if found.gpus:
            cc = found.gpus[0]["cc"]
            found.arch = f"sm_{cc[0]}{cc[1]}" if tuple(cc) >= _MIN_CC else found.arch
        return "ok", f"CPU executor ({why}); Device.default() is Device.cpu()", ""
    found.executor = "gpu"
    gpu = usable[0]
    found.arch = f"sm_{gpu['cc'][0]}{gpu['cc'][1]}"
    return (
        "ok",
        f"GPU {gpu['ordinal']} {gpu['name']} ({found.arch}); SAFEKERNELS_DEVICE=cpu forces the CPU",
        "",
    )


def check_smoke_compile(found: Findings) -> Outcome:
    module = importlib.import_module("safekernels.doctor_kernel")
    codegen = importlib.import_module("safekernels.codegen")
    start = time.perf_counter()
    compiled = codegen.compile_simt_kernel(module.doctor_axpb, arch=found.arch, use_cache=False)
    elapsed = (time.perf_counter() - start) * 1e3
    if not compiled.cubin.startswith(b"\x7fELF") or ".entry" not in compiled.ptx:
        return "fail", "the compiler returned something that is not a cubin", "run `safekernels doctor` again"
    found.compiled = True
    return (
        "ok",
        f"compiled a SIMT kernel to {found.arch} cubin ({len(compiled.cubin)} bytes, {elapsed:.0f} ms)",
        "",
    )


def check_smoke_run(found: Findings) -> Outcome:
    import numpy as np

    sk: Any = importlib.import_module("safekernels")
    simt: Any = importlib.import_module("safekernels.simt")
    module = importlib.import_module("safekernels.doctor_kernel")
    device = sk.Device(0) if found.executor == "gpu" else sk.Device.cpu()
    n = 1000  # not a multiple of the block: the out-of-bounds branch runs too
    stream = device.new_stream()
    host = np.arange(n, dtype=np.float32)
    x = sk.to_device(host, stream)
    y = sk.zeros(n, np.float32, stream)
    kernel = module.doctor_axpb
    prepared = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=module.SMOKE_BLOCK), device)
    kernel.launch(prepared, stream, x, y)
    result = y.to_numpy(stream)
    expected = host * np.float32(2.0) + np.float32(1.0)
    wrong = int(np.count_nonzero(result != expected))
    where = f"GPU {device.name}" if device.is_gpu else "the CPU executor"
    if wrong:
        return (
            "fail",
            f"ran on {where}: {wrong} of {n} results wrong",
            "please report this with the output of `safekernels doctor --json`",
        )
    return "ok", f"ran on {where}: {n}/{n} results correct", ""


def check_checker(_: Findings) -> Outcome:
    libcst = importlib.import_module("libcst")
    importlib.import_module("ownership_check.cli")
    version = getattr(libcst, "__version__", None)
    if version is None:
        from importlib.metadata import version as dist_version

        version = dist_version("libcst")
    return "ok", f"ownership-check ready (libcst {version})", ""


def check_mypy(_: Findings) -> Outcome:
    mypy_version = importlib.import_module("mypy.version")
    try:
        plugin_module = importlib.import_module("mypy_plugin")
    except Exception as exc:
        return (
            "warn",
            f"mypy {mypy_version.__version__}, but the plugin does not import ({_one_line(exc)})",
            "reinstall safekernels into this environment (`pip install .`, or `make setup` in a checkout)",
        )
    if not callable(getattr(plugin_module, "plugin", None)):
        if getattr(plugin_module, "__file__", None) is None:
            return (
                "warn",
                "`mypy_plugin` imports as an empty namespace package (a stale editable install)",
                "rerun the editable install: `make setup` in the checkout (or `pip install -e .`)",
            )
        return "warn", "mypy_plugin has no `plugin` entry point", "reinstall safekernels"
    return "ok", f'mypy {mypy_version.__version__} with plugins = ["mypy_plugin"] importable', ""


def _mypy_module_location(module: str) -> tuple[str | None, str, list[str]]:
    """Where mypy, run from the current folder with its configuration, finds `module`.

    Returns (path or None, the config file mypy read or "", the configured plugins).  This is mypy's own module
    finder (search paths from `mypy_path`, the interpreter's site-packages and its `.pth` entries), so it fails
    exactly where `mypy` would report `Cannot find implementation or library stub`.
    """
    import io

    options_mod: Any = importlib.import_module("mypy.options")
    config_parser: Any = importlib.import_module("mypy.config_parser")
    modulefinder: Any = importlib.import_module("mypy.modulefinder")
    fscache: Any = importlib.import_module("mypy.fscache")
    build: Any = importlib.import_module("mypy.build")
    options = options_mod.Options()
    config_parser.parse_config_file(options, lambda: None, None, stdout=io.StringIO(), stderr=io.StringIO())
    options.python_executable = sys.executable
    paths = modulefinder.compute_search_paths([], options, build.default_data_dir())
    found = modulefinder.FindModuleCache(paths, fscache.FileSystemCache(), options).find_module(module)
    config = str(options.config_file or "")
    return (found if isinstance(found, str) else None), config, list(options.plugins)


def check_mypy_imports(_: Findings) -> Outcome:
    """Can mypy, run here, resolve `safekernels`?  An editable install through an import hook hides it."""
    found, config, plugins = _mypy_module_location("safekernels")
    where = f"config {config}" if config else "no mypy config in this folder"
    if found is None:
        return (
            "warn",
            f"mypy run here cannot find `safekernels` ({where}): no ownership errors, only import errors",
            "an editable install hides the package from mypy (setuptools' import hook): in a safekernels "
            "checkout run `make setup`, or `pip install .` (not -e), or "
            "`pip install -e . --config-settings editable_mode=strict`; or set `mypy_path` to the checkout's src/",
        )
    plugin = "plugins = mypy_plugin" if "mypy_plugin" in plugins else "mypy_plugin not in plugins"
    detail = f"mypy resolves safekernels to {found} ({where}; {plugin})"
    if "mypy_plugin" not in plugins and config:
        return "warn", detail, 'add `plugins = ["mypy_plugin"]` to [tool.mypy] for ownership errors in mypy'
    return "ok", detail, ""


def _file_head(path: Path, n: int) -> tuple[bytes, int] | None:
    """The first `n` bytes and the size of a regular file; None for anything else (FIFO, device, dangling link)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        return os.read(fd, n), info.st_size
    except OSError:
        return None
    finally:
        os.close(fd)


def check_module_guard(_: Findings) -> Outcome:
    """Whether `python -m safekernels` is protected from a `safekernels.py` in the working folder."""
    from safekernels.safe_sys_path import PTH_LINE

    name = "safekernels-module-guard.pth"
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    found = [folder for folder in folders if _file_head(Path(folder) / name, len(PTH_LINE) + 1) is not None]
    if found:
        return "ok", f"{name} in {found[0]}", ""
    return (
        "warn",
        f"{name} is not installed (an editable install made without `make setup`)",
        "`python -m safekernels` in a folder holding a safekernels.py would run that file; install with "
        "`make setup` or from the wheel (the console scripts `safekernels` / `ownership-check` are not affected)",
    )


def check_cache(_: Findings) -> Outcome:
    cache = importlib.import_module("safekernels.codegen.cache")
    root = cache.cache_dir()
    if root is None:
        return "ok", "disabled (SAFEKERNELS_NO_CACHE is set): every compile is cold", ""
    entries = sorted(root.glob("*.skc")) if root.is_dir() else []
    size = 0
    bad = 0
    for entry in entries:
        head = _file_head(entry, len(cache.MAGIC))  # never opens a FIFO or device for reading
        if head is None or head[0] != cache.MAGIC:
            bad += 1
        else:
            size += head[1]
    detail = f"{root} ({len(entries)} entries, {size / 2**20:.1f} MiB)"
    try:
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=root, prefix=".doctor-", delete=True):
            pass
    except OSError as exc:
        return (
            "warn",
            f"{detail}, not writable ({_one_line(exc)})",
            "set SAFEKERNELS_CACHE_DIR to a writable folder (compiles still work, just never cached)",
        )
    if bad:
        return (
            "warn",
            f"{detail}, {bad} unreadable",
            f"harmless (bad entries are rebuilt), but `rm -rf {root}` clears the cache",
        )
    return "ok", detail, ""


Check = Callable[[Findings], Outcome]

#: (name, required, check) in the order they run and print.
CHECKS: list[tuple[str, bool, Check]] = [
    ("python", True, check_python),
    ("llvmlite", True, check_llvmlite),
    ("cuda-bindings", True, check_cuda_bindings),
    ("nvJitLink", True, check_nvjitlink),
    ("libdevice", False, check_libdevice),
    ("driver", False, check_driver),
    ("GPUs", False, check_gpus),
    ("executor", True, check_executor),
    ("smoke compile", True, check_smoke_compile),
    ("smoke run", True, check_smoke_run),
    ("checker", True, check_checker),
    ("mypy plugin", False, check_mypy),
    ("mypy imports", False, check_mypy_imports),
    ("disk cache", False, check_cache),
    ("module guard", False, check_module_guard),
]

_IMPORT_HINTS = {
    "llvmlite": "pip install 'llvmlite>=0.50'",
    "cuda-bindings": "pip install cuda-bindings (12.x for a CUDA 12 driver, 13.x for CUDA 13)",
    "nvJitLink": "pip install 'nvidia-nvjitlink>=12.6' (same CUDA major version as cuda-bindings)",
    "libdevice": "pip install nvidia-nvvm",
    "checker": "pip install 'libcst>=1.4'",
    "mypy plugin": "pip install 'mypy>=1.11'",
    "mypy imports": "pip install 'mypy>=1.11'",
    "smoke compile": "fix the llvmlite / nvJitLink lines above first",
    "smoke run": "see the driver and GPU lines above; SAFEKERNELS_DEVICE=cpu runs on the CPU executor",
}


def run_checks(checks: list[tuple[str, bool, Check]] | None = None) -> list[CheckResult]:
    """Run every check, each isolated: an exception becomes a failed (or, if optional, warning) line."""
    found = Findings()
    results = []
    for name, required, check in CHECKS if checks is None else checks:
        try:
            status, detail, hint = check(found)
        except Exception as exc:
            status = "fail" if required else "warn"
            detail = ("not importable: " if isinstance(exc, ImportError) else "error: ") + _one_line(exc)
            hint = _IMPORT_HINTS.get(name, "please report this with the output of `safekernels doctor --json`")
        results.append(CheckResult(name, status, detail, hint, required))
    return results


# -- rendering ----------------------------------------------------------------------------------------------

_MARKS = {"ok": "✓", "warn": "!", "fail": "✗"}
_ASCII_MARKS = {"ok": "+", "warn": "!", "fail": "x"}
_COLOURS = {"ok": "\033[32m", "warn": "\033[33m", "fail": "\033[31m"}


def _marks_for(stream: TextIO) -> dict[str, str]:
    try:
        "".join(_MARKS.values()).encode(stream.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return _ASCII_MARKS
    return _MARKS


def verdict(results: list[CheckResult]) -> tuple[int, str]:
    failed = [r.name for r in results if r.failed_required]
    warnings = sum(1 for r in results if r.status == "warn" or (r.status == "fail" and not r.required))
    if failed:
        return 1, f"NOT READY: {len(failed)} required check(s) failed ({', '.join(failed)})"
    executor = next((r for r in results if r.name == "executor"), None)
    mode = "CPU-executor mode" if executor is None or executor.detail.startswith("CPU") else "GPU mode"
    note = f", {warnings} warning(s)" if warnings else ""
    return 0, f"ready ({mode}{note})"


def render(results: list[CheckResult], stream: TextIO, colour: bool) -> None:
    marks = _marks_for(stream)
    width = max(len(r.name) for r in results) + 2
    for r in results:
        mark = marks[r.status]
        if colour:
            mark = f"{_COLOURS[r.status]}{mark}\033[0m"
        stream.write(f"{mark} {r.name:<{width}}{r.detail}\n")
        if r.hint and r.status != "ok":
            stream.write(f"  {'':<{width}}fix: {r.hint}\n")
    _, text = verdict(results)
    stream.write(f"\nverdict: {text}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="safekernels doctor",
        description="Check that this machine can check, compile and run safekernels kernels.",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results = run_checks()
    code, text = verdict(results)
    if args.json:
        print(json.dumps({"ok": code == 0, "verdict": text, "checks": [asdict(r) for r in results]}, indent=2))
        return code
    from safekernels import __version__

    out = sys.stdout
    colour = out.isatty() and "NO_COLOR" not in os.environ
    out.write(f"safekernels {__version__} doctor ({platform.system()} {platform.machine()})\n")
    render(results, out, colour)
    return code
