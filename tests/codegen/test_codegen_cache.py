"""The disk cache: miss then hit, corrupt or truncated entries rebuilt, atomic writes, keys that change."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from safekernels import codegen
from safekernels.codegen.cache import cache_key
from safekernels.codegen.frontend import spec_from_kernel
from safekernels.codegen.pipeline import tool_versions

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from conftest_helpers import load  # noqa: E402

CATALOG = load(HERE / "kernels_catalog.py", "kernels_catalog")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("SAFEKERNELS_NO_CACHE", raising=False)
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path))
    return tmp_path


def _entries(root: Path) -> list[Path]:
    return sorted(root.glob("*.skc"))


def test_miss_then_hit(cache: Path) -> None:
    first = codegen.compile_simt_kernel(CATALOG.saxpy, arch="sm_90")
    second = codegen.compile_simt_kernel(CATALOG.saxpy, arch="sm_90")
    assert not first.from_cache and second.from_cache
    assert second.cubin == first.cubin and second.ptx == first.ptx
    assert second.param_plan == first.param_plan and second.entry_name == "saxpy"
    assert second.block == (256, 1, 1)
    assert len(_entries(cache)) == 1
    assert not list(cache.glob("*.tmp"))


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage"])
def test_corrupt_entry_is_rebuilt(cache: Path, damage: str) -> None:
    good = codegen.compile_simt_kernel(CATALOG.vecadd, arch="sm_90")
    (entry,) = _entries(cache)
    data = bytearray(entry.read_bytes())
    if damage == "flip":
        data[-10] ^= 0xFF
    elif damage == "truncate":
        data = data[: len(data) // 2]
    else:
        data = bytearray(b"not a cache entry")
    entry.write_bytes(bytes(data))
    rebuilt = codegen.compile_simt_kernel(CATALOG.vecadd, arch="sm_90")
    assert not rebuilt.from_cache
    assert rebuilt.cubin == good.cubin
    assert codegen.compile_simt_kernel(CATALOG.vecadd, arch="sm_90").from_cache


def test_key_depends_on_arch_flags_and_versions() -> None:
    spec = spec_from_kernel(CATALOG.helpers)
    versions = tool_versions()
    base = cache_key(spec, "sm_90", False, versions)
    assert base == cache_key(spec, "sm_90", False, versions)
    assert base != cache_key(spec, "sm_80", False, versions)
    assert base != cache_key(spec, "sm_90", True, versions)
    assert base != cache_key(spec, "sm_90", False, {**versions, "llvmlite": "0.0"})


def test_key_covers_helpers_and_module_constants(monkeypatch: pytest.MonkeyPatch) -> None:
    versions = tool_versions()
    int_ops_key = cache_key(spec_from_kernel(CATALOG.int_ops), "sm_90", False, versions)
    monkeypatch.setattr(CATALOG, "SCALE", 4)
    assert cache_key(spec_from_kernel(CATALOG.int_ops), "sm_90", False, versions) != int_ops_key
    helpers_key = cache_key(spec_from_kernel(CATALOG.helpers), "sm_90", False, versions)
    monkeypatch.setattr(CATALOG.clamp, "py_function", CATALOG.smooth.py_function)
    assert cache_key(spec_from_kernel(CATALOG.helpers), "sm_90", False, versions) != helpers_key


def test_disabled_cache_writes_nothing(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFEKERNELS_NO_CACHE", "1")
    assert not codegen.compile_simt_kernel(CATALOG.vecadd, arch="sm_90").from_cache
    assert not _entries(cache)
