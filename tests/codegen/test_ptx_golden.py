"""Golden properties of the PTX: the read-only path, `.reqntid`, traps, atomics, barriers, shuffles."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from safekernels import codegen

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "codegen"))
from conftest_helpers import load  # noqa: E402

CATALOG = load(ROOT / "tests/codegen/kernels_catalog.py", "kernels_catalog")


def ptx(kernel: Any, arch: str = "sm_90") -> str:
    return codegen.compile_simt_kernel(kernel, arch=arch, use_cache=False).ptx


def test_slice_reads_use_the_read_only_path_and_writes_do_not() -> None:
    text = ptx(CATALOG.vecadd).split("// .globl")[1]  # the entry as written (the coarsened one follows it)
    assert len(re.findall(r"ld\.global\.nc\.b32", text)) == 2  # a[i], b[i]
    assert re.search(r"st\.global\.b32", text)
    assert "ld.global.b32" not in text


def test_exact_contract_block_is_reqntid() -> None:
    assert ".reqntid 256, 1, 1" in ptx(CATALOG.vecadd)
    assert ".reqntid 16, 16, 1" in ptx(CATALOG.grid2d)


def test_llvm_ir_marks_buffers_noalias_and_slices_readonly() -> None:
    ir = codegen.compile_simt_kernel(CATALOG.vecadd, arch="sm_90", use_cache=False).llvm_ir
    assert 'ptr addrspace(1) noalias readonly %"a.ptr"' in ir
    assert 'ptr addrspace(1) noalias %"c.ptr"' in ir
    assert "ptx_kernel" in ir


def test_bounds_checks_trap_and_unchecked_indexing_removes_them() -> None:
    assert "trap;" in ptx(CATALOG.out_of_bounds)
    assert "trap;" not in ptx(CATALOG.unchecked_copy)


def test_atomics_are_device_scope() -> None:
    text = ptx(CATALOG.warp_sums)
    assert re.search(r"atom\.global\.add\.u64|red\.global\.add\.u64", text)
    assert ".sys" not in text


def test_barrier_shared_memory_and_shuffles() -> None:
    block_sum = ptx(CATALOG.block_sum)
    assert "bar.sync \t0" in block_sum or "barrier.sync" in block_sum or "bar.sync 0" in block_sum
    assert ".shared .align 16 .b8" in block_sum
    warp = ptx(CATALOG.warp_sums)
    assert "shfl.sync.bfly.b32" in warp and "shfl.sync.idx.b32" in warp and "activemask.b32" in warp


def test_math_links_libdevice_by_default_and_approx_flag_uses_hardware_approximations() -> None:
    accurate = ptx(CATALOG.math_funcs)
    approx = codegen.compile_simt_kernel(
        CATALOG.math_funcs, arch="sm_90", approx_math=True, use_cache=False
    ).ptx
    assert "ex2.approx" in approx and "sin.approx" in approx
    assert "sin.approx" not in accurate


def test_missing_libdevice_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from safekernels.codegen import libdevice
    from safekernels.codegen.pipeline import LibdeviceNotFoundError

    monkeypatch.setenv("SAFEKERNELS_LIBDEVICE", "/nonexistent/libdevice.10.bc")
    libdevice.find_libdevice.cache_clear()
    try:
        with pytest.raises(LibdeviceNotFoundError, match="nvidia-nvvm"):
            codegen.compile_simt_kernel(CATALOG.math_funcs, arch="sm_90", approx_math=False, use_cache=False)
    finally:
        monkeypatch.delenv("SAFEKERNELS_LIBDEVICE")
        libdevice.find_libdevice.cache_clear()
