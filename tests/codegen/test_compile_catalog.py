"""Every catalog kernel and every SIMT example compiles to PTX that nvJitLink assembles (sm_80, sm_90)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from safekernels import codegen
from safekernels.codegen.libdevice import find_libdevice

ROOT = Path(__file__).resolve().parents[2]


def _load(path: Path, name: str) -> Any:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


CATALOG = _load(ROOT / "tests/codegen/kernels_catalog.py", "kernels_catalog")
EXAMPLES = sorted((ROOT / "examples").glob("*_simt.py"))


def _example_kernels() -> list[Any]:
    kernels = []
    for path in EXAMPLES:
        module = _load(path, f"example_{path.stem}")
        kernels += [v for v in vars(module).values() if type(v).__name__ == "SimtKernel"]
    return kernels


ALL = [*CATALOG.ALL_KERNELS, *_example_kernels()]


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFEKERNELS_NO_CACHE", "1")


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("kernel", ALL, ids=lambda k: k.name)
def test_kernel_assembles(kernel: Any, arch: str) -> None:
    if kernel.name == "math_funcs" and find_libdevice() is None:
        pytest.skip("libdevice not found: install the `nvidia-nvvm` dependency (math.* needs it)")
    compiled = codegen.compile_simt_kernel(kernel, arch=arch, use_cache=False)
    assert compiled.cubin[:4] == b"\x7fELF"
    assert f".target {arch}" in compiled.ptx
    assert f".entry {compiled.entry_name}(" in compiled.ptx
    # every libdevice call was linked and inlined; only CUDA's system calls (device print / assert) stay external
    externs = re.findall(r"\.extern \.func\s*(?:\([^)]*\))?\s*(\w+)", compiled.ptx)
    assert set(externs) <= {"vprintf", "__assertfail"}, externs


def test_examples_were_found() -> None:
    assert {k.name for k in _example_kernels()} >= {"vecadd", "saxpy"}


def test_param_plan_matches_signature() -> None:
    plan = codegen.compile_simt_kernel(CATALOG.saxpy, arch="sm_90", use_cache=False).param_plan
    assert [(e.name, e.kind, e.dtype) for e in plan.entries] == [
        ("alpha", "scalar", "f32"),
        ("x", "slice", "f32"),
        ("y0", "slice", "f32"),
        ("y", "disjoint", "f32"),
        ("n", "scalar", "u32"),
    ]
    assert plan.slot_count == 8
