"""Thread coarsening of elementwise SIMT kernels (`codegen.lowering.coarsen`), checked without a GPU.

The coarsened entry point runs F logical threads per hardware thread with 16-byte accesses.  Its PTX is read
here (vector loads on the read-only path, vector stores, the scalar fallback), nvJitLink assembles it for sm_80
and sm_90, and the host JIT (`host_jit`) executes it thread by thread against numpy for every catalog kernel it
applies to, with a partial tail, a misaligned base and traps; kernels that observe the hardware thread keep one
entry point.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from safekernels import codegen, simt
from safekernels.codegen.frontend.builder import build_module
from safekernels.codegen.frontend.spec import spec_from_kernel
from safekernels.codegen.lowering.coarsen import plan_coarsening
from safekernels.codegen.pipeline import VECTOR_BYTES_ENV
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread
from safekernels.simt.gpu_launch import GpuLauncher

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "codegen"))
from conftest_helpers import load  # noqa: E402
from host_jit import HostKernel, Unsupported  # noqa: E402

CATALOG: Any = load(ROOT / "tests/codegen/kernels_catalog.py", "kernels_catalog")


def _compile(kernel: Any, arch: str = "sm_90", **kw: Any) -> codegen.CompiledKernel:
    return codegen.compile_simt_kernel(kernel, arch=arch, use_cache=False, **kw)


@simt.kernel
@simt.launch_contract(block=256)
def accumulate(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    """In place: reads back its own element (`out.get()`) before writing it."""
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(out.get() * 2.0 + a[i])


@simt.kernel
@simt.launch_contract(block=256)
def early_return(a: Slice[f32], c: DisjointSlice[f32], n: i32) -> None:
    """`return` ends one logical thread, not the hardware thread's other logical threads."""
    idx = thread.index_1d()
    i = idx.get()
    if i % 3 == 1 or i >= n:
        return
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + 1.0)


@simt.kernel
@simt.launch_contract(block=256)
def uses_block_index(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[idx.get()] + f32(thread.block_idx_x()))


@simt.kernel
@simt.launch_contract(block=256)
def uses_atomics(a: Slice[f32], total: AtomicSlice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[idx.get()])
    total.fetch_add(0, 1.0)


@simt.kernel
@simt.launch_contract(block=256)
def no_requires_copy(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    """No `requires`: `a[i]` keeps its bounds check, which must still trap for a short `a`."""
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i])


def test_vecadd_ptx_has_vector_loads_on_the_read_only_path_and_a_vector_store() -> None:
    compiled = _compile(CATALOG.vecadd)
    entry, factor = compiled.meta["coarse"]
    assert factor == 4 and entry == f"{compiled.entry_name}_x4"
    coarse = compiled.ptx.split(f".entry {entry}(")[1]
    assert len(re.findall(r"ld\.global\.nc\.v4\.(?:b32|f32)", coarse)) == 2
    assert len(re.findall(r"st\.global\.v4\.(?:b32|f32)", coarse)) == 1
    assert re.search(r"ld\.global\.nc\.(?:b32|f32)\s", coarse), "the scalar fallback (tail, misaligned) is gone"
    assert ".reqntid 256, 1, 1" in coarse
    scalar_entry = compiled.ptx.split(f".entry {compiled.entry_name}(")[1].split(".entry")[0]
    assert ".v4." not in scalar_entry  # the kernel as written is unchanged


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_coarsened_kernels_assemble_with_nvjitlink(arch: str) -> None:
    for kernel in (CATALOG.vecadd, CATALOG.half_storage, CATALOG.i64_minmax, accumulate):
        compiled = _compile(kernel, arch)
        assert compiled.meta.get("coarse") and compiled.cubin[:4] == b"\x7fELF"


def test_half_precision_uses_eight_elements_per_thread() -> None:
    compiled = _compile(CATALOG.half_storage)
    entry, factor = compiled.meta["coarse"]
    assert factor == 8
    coarse = compiled.ptx.split(f".entry {entry}(")[1]
    assert re.search(r"ld\.global\.nc\.v4\.b32", coarse)  # 8 halves = 16 bytes


@pytest.mark.parametrize(
    "kernel", [uses_block_index, uses_atomics, CATALOG.block_sum, CATALOG.warp_sums, CATALOG.grid2d]
)
def test_kernels_that_observe_the_hardware_thread_are_not_coarsened(kernel: Any) -> None:
    assert plan_coarsening(build_module(spec_from_kernel(kernel))) is None
    assert "coarse" not in _compile(kernel).meta


def test_the_rewrite_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VECTOR_BYTES_ENV, "0")
    assert "coarse" not in codegen.compile_simt_kernel(CATALOG.vecadd, use_cache=False).meta
    monkeypatch.setenv(VECTOR_BYTES_ENV, "12")
    with pytest.raises(ValueError, match=VECTOR_BYTES_ENV):
        codegen.compile_simt_kernel(CATALOG.vecadd, use_cache=False)


def _run_coarse(kernel: Any, args: list[Any], n: int, **kw: Any) -> Any:
    """The coarsened entry on the host for a launch of ceil(n / 256) blocks (a multiple of the factor)."""
    compiled = _compile(kernel, **kw)
    entry, factor = compiled.meta["coarse"]
    blocks = -(-n // 256)
    assert blocks % factor == 0, "pick n so that the launcher would use the coarsened entry"
    host = HostKernel(kernel, entry, **kw)
    return host.run(args, blocks // factor * 256)


# n = 2011: 8 blocks of 256 -> 2 coarsened blocks; the last logical threads (2011..2047) are a partial tail
N = 2011


@pytest.mark.parametrize("name", ["vecadd", "saxpy", "int_ops", "i64_minmax", "loops_up", "loops_down", "collatz",
                                  "helpers", "logic", "unchecked_copy"])  # fmt: skip
def test_coarsened_catalog_kernel_on_the_host_matches_numpy(name: str) -> None:
    case = CATALOG.CASES[name]
    host = case.make_args(N, np.random.default_rng(11))
    poisoned = [np.full_like(a, 99) if k in case.outputs else a for k, a in enumerate(host)]
    compiled = _compile(case.kernel)
    factor = compiled.meta["coarse"][1]
    n = N if -(-N // 256) % factor == 0 else 4096 - 37
    if n != N:
        host = case.make_args(n, np.random.default_rng(11))
        poisoned = [np.full_like(a, 99) if k in case.outputs else a for k, a in enumerate(host)]
    result = _run_coarse(case.kernel, poisoned, n)
    assert result.trapped == []
    for k, expected in zip(case.outputs, case.reference(host), strict=True):
        np.testing.assert_array_equal(result.arrays[k], expected, err_msg=f"{name} output {k}")


def test_misaligned_bases_take_the_scalar_path_with_the_same_result() -> None:
    rng = np.random.default_rng(3)
    backing = rng.random(N + 1, dtype=np.float32)
    a, b = backing[1:], rng.random(N, dtype=np.float32)  # a starts 4 bytes past a 16-byte boundary
    assert a.ctypes.data % 16 != 0
    out = np.full(N, 99, np.float32)
    result = _run_coarse(CATALOG.vecadd, [a, b, out], N)
    assert result.trapped == []
    np.testing.assert_array_equal(result.arrays[2], a + b)


def test_in_place_update_reads_back_its_own_element() -> None:
    rng = np.random.default_rng(5)
    a, c = rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32)
    result = _run_coarse(accumulate, [a, c], N)
    np.testing.assert_array_equal(result.arrays[1], c * np.float32(2.0) + a)


def test_return_ends_one_logical_thread() -> None:
    rng = np.random.default_rng(9)
    a = rng.random(N, dtype=np.float32)
    c = np.full(N, 99, np.float32)
    n = 1500
    result = _run_coarse(early_return, [a, c, n], N)
    i = np.arange(N)
    expected = np.where((i % 3 == 1) | (i >= n), np.float32(99), a + np.float32(1.0))
    np.testing.assert_array_equal(result.arrays[1], expected)


def test_out_of_bounds_reads_still_trap() -> None:
    rng = np.random.default_rng(1)
    a = rng.random(N - 5, dtype=np.float32)  # five elements short: the last logical threads must trap
    c = np.full(N, 99, np.float32)
    result = _run_coarse(no_requires_copy, [a, c], N)
    assert result.trapped, "a read past len(a) did not trap"
    np.testing.assert_array_equal(result.arrays[1][: N - 512], a[: N - 512])  # the fast blocks before it ran


def test_out_of_bounds_catalog_kernel_traps_in_every_hardware_thread() -> None:
    kernel = CATALOG.out_of_bounds
    rng = np.random.default_rng(2)
    a, c = rng.random(1024, dtype=np.float32), np.zeros(1024, np.float32)
    try:
        result = _run_coarse(kernel, [a, c], 1024)
    except Unsupported:
        pytest.skip("host runner cannot run this kernel")
    assert len(result.trapped) == 1024 // 4


class _FakeLauncher:
    """`GpuLauncher.entry_for` without a device."""

    entry_for = GpuLauncher.entry_for

    def __init__(self, factor: int, max_threads: int = 1024) -> None:
        self.function, self.coarse_function = "scalar", "coarse"
        self.coarse_factor, self.coarse_max_threads = factor, max_threads


def test_launcher_uses_the_coarsened_entry_only_when_the_logical_threads_match() -> None:
    launcher: Any = _FakeLauncher(4)
    assert launcher.entry_for((1 << 20, 1, 1), (256, 1, 1)) == ("coarse", (1 << 18, 1, 1))
    assert launcher.entry_for((391, 1, 1), (256, 1, 1)) == ("scalar", (391, 1, 1))  # not a multiple of 4
    assert launcher.entry_for((8, 2, 1), (256, 1, 1)) == ("scalar", (8, 2, 1))
    assert launcher.entry_for((8, 1, 1), (16, 16, 1)) == ("scalar", (8, 1, 1))
    assert launcher.entry_for((8, 1, 1), (256, 1, 1), 64 * 1024) == ("scalar", (8, 1, 1))  # dynamic smem opt-in
    small: Any = _FakeLauncher(4, 128)  # the coarsened entry cannot run 256 threads: the kernel as written
    assert small.entry_for((8, 1, 1), (256, 1, 1)) == ("scalar", (8, 1, 1))
