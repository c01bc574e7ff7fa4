"""Each class of CPU/GPU disagreement found by independent programs, pinned on the CI machine (no GPU): the CPU
executor's values against numpy or a model of the docs, and the GPU compiler's acceptance and emitted code for
sm_90a and sm_80.  The H200 half (values against the CPU executor) is test_gpu_executor_regressions.py."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import regression_kernels as rk

import safekernels as sk
from safekernels import codegen, tile
from safekernels.dtypes import bf16, f32
from safekernels.errors import KernelTrapError

CPU = sk.Device.cpu()


def test_partial_warp_collectives_follow_the_docs_on_the_cpu() -> None:
    rng = np.random.default_rng(80)
    a = rng.uniform(-2, 2, rk.N_WARP).astype(np.float32)
    k = rng.integers(-50, 50, rk.N_WARP).astype(np.int32)
    out, ints = rk.run_partial_warp(CPU)
    want_out, want_ints = rk.partial_warp_reference(a, k)
    np.testing.assert_allclose(out, want_out, rtol=1e-6, atol=1e-5)
    np.testing.assert_array_equal(ints, want_ints)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_partial_warp_collectives_shuffle_among_the_lanes_present(arch: str) -> None:
    ptx = codegen.compile_simt_kernel(rk.partial_warp, arch=arch, use_cache=False).ptx
    assert "activemask.b32" in ptx  # the member mask: a 16-lane warp never names absent lanes
    assert "shfl.sync.idx.b32" in ptx and "shfl.sync.bfly.b32" in ptx  # partial and full-warp paths
    assert "0xffffffff" not in ptx.split("shfl.sync.idx", 1)[1].split("\n", 1)[0]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_bf16_simt_parameters_compile_on_this_llvmlite(arch: str) -> None:
    compiled = codegen.compile_simt_kernel(rk.bf16_scalars, arch=arch, use_cache=False)
    assert "cvt.rn.bf16.f32" in compiled.ptx and compiled.cubin


def test_bf16_simt_parameters_on_the_cpu() -> None:
    (y,) = rk.run_bf16_scalars(CPU)  # to_numpy gives bf16 tensors as f32 values
    x = bf16(np.linspace(-3, 3, 100).astype(np.float32))
    want = bf16(bf16(x * bf16(1.7)) + np.float32(np.float16(0.3)))
    np.testing.assert_array_equal(y, want)


def test_cpu_typing_follows_the_compiler_and_wraps_silently() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # u32 wrap-around is defined: no numpy overflow warning
        o32, o16, ou = rk.run_typing_rules(CPU)
    h = np.linspace(-1, 2, 32).astype(np.float16).astype(np.float32)
    k = np.arange(32, dtype=np.int32) * 1000 + 7
    v = h * h + np.float32(np.float16(1.0001))  # f32 arithmetic on widened f16 values
    e = np.array([np.float32(np.exp(np.float64(x))) for x in h], np.float32)
    want = (k.astype(np.float32) * np.float32(0.1) + e) + v  # int * f32 in f32, not f64
    np.testing.assert_array_equal(o32, want)
    np.testing.assert_array_equal(o16, (v * np.float32(3.0)).astype(np.float16))
    w = np.full(32, 3_000_000_000, np.uint64) + np.arange(32, dtype=np.uint64)
    np.testing.assert_array_equal(ou, ((w * 3 + 4_000_000_000) % 2**32).astype(np.uint32))


def test_shared_arrays_in_helpers_run_and_compile() -> None:
    (c,) = rk.run_helper_shared(CPU)
    a = np.arange(128, dtype=np.float32).reshape(2, 64)
    np.testing.assert_array_equal(c, (a[:, ::-1] * 3).reshape(128))  # one array per call site, barrier-ordered
    ptx = codegen.compile_simt_kernel(rk.helper_shared, arch="sm_80", use_cache=False).ptx
    assert ptx.count(".shared .align 16 .b8") == 1


def test_f16_and_bf16_shared_arrays_round_on_store_and_compute_in_f32() -> None:
    h, g = rk.run_narrow_shared(CPU)
    a = (np.linspace(-2, 2, 32).astype(np.float32) + np.float32(1e-3))[::-1] * np.float32(3.0)
    half = a.astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(h, half * half)  # f32 product of rounded values, not an f16 product
    brain = bf16(a)
    np.testing.assert_array_equal(g, brain * brain)
    assert not np.array_equal(half * half, (a.astype(np.float16) * a.astype(np.float16)).astype(np.float32))
    for arch in ("sm_80", "sm_90"):
        assert codegen.compile_simt_kernel(rk.narrow_shared, arch=arch, use_cache=False).cubin


def test_matmul_16_rows_and_f32_on_the_cpu() -> None:
    z16, z32 = rk.run_matmuls(CPU)
    rng = np.random.default_rng(16)
    a16 = rng.uniform(-1, 1, (32, 16)).astype(np.float16)
    b16 = rng.uniform(-1, 1, (16, 48)).astype(np.float16)
    a32 = rng.uniform(-1, 1, (64, 48)).astype(np.float32)
    b32 = rng.uniform(-1, 1, (48, 64)).astype(np.float32)
    np.testing.assert_allclose(z16, a16.astype(np.float32) @ b16.astype(np.float32), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(z32, a32 @ b32 + 0.5, rtol=1e-5, atol=1e-5)


def _compile_tile(kernel: object, specs: list[tuple[str, str, str, tuple[int, ...], tuple[int, ...] | None]],
                  arch: str) -> str:  # fmt: skip
    from safekernels.codegen.tile.pipeline import compile_tile
    from safekernels.codegen.tile.specialize import param_info
    from safekernels.dtypes import dtype_of

    infos = [param_info(n, k, dtype_of(d), s, t) for n, k, d, s, t in specs]
    fn = kernel.fn  # type: ignore[attr-defined]
    compiled = compile_tile(fn, infos, 2 if len(specs[0][3]) == 2 else 1, arch=arch, use_cache=False)
    assert compiled.cubin
    return compiled.ptx


@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_matmul_16_rows_under_default_warps_and_f32_compile(arch: str) -> None:
    z16 = ("z", "partition", "f32", (32, 48), (16, 16))
    _compile_tile(
        rk.matmul_16, [z16, ("a", "tensor", "f16", (32, 16), None), ("b", "tensor", "f16", (16, 48), None)], arch
    )
    ptx = _compile_tile(rk.matmul_f32, [("z", "partition", "f32", (64, 64), (32, 32)),
                                        ("a", "tensor", "f32", (64, 48), None), ("b", "tensor", "f32", (48, 64), None)],
                        arch)  # fmt: skip
    assert "fma.rn.f32" in ptx and "mma" not in ptx  # exact FMA units, no TF32 tensor cores


def test_where_with_scalar_values_and_integer_division_at_the_minimum() -> None:
    z, c, d, q = rk.run_tile_scalars(CPU)
    x = np.linspace(0, 1, 40).astype(np.float32)
    np.testing.assert_array_equal(z, np.where(x > 0.5, 1.0, 0.0).astype(np.float32))
    np.testing.assert_array_equal(c, np.where(x > 0.5, 3, -1))
    a, b = rk.DIVIDENDS.astype(np.int64), rk.DIVISORS.astype(np.int64)
    trunc = np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))
    np.testing.assert_array_equal(d, ((trunc + 2**31) % 2**32 - 2**31).astype(np.int32))  # MIN / -1 wraps
    np.testing.assert_array_equal(q, (a // 1 - (a < 0) * (a % 2)) // 2 + ((a < 0) & (a % 2 != 0)))
    (i8,) = rk.run_i8_division(CPU)
    np.testing.assert_array_equal(i8, [42, -42, -63, -63, -128, -14, -14, -1])


_TRAP_FORMS = {
    "x.load": "x.load((tile.bid(0) + 1,), (64,))",
    "x.partition.load": "x.partition((64,)).load((tile.bid(0) + 1,))",
}


@pytest.mark.parametrize("form", sorted(_TRAP_FORMS))
def test_tile_index_past_the_last_tile_traps_on_the_cpu_and_in_the_ptx(form: str, tmp_path: Path) -> None:
    source = (
        "from safekernels import tile\nfrom safekernels.dtypes import f32\n"
        "from safekernels.tile import Partition, Tensor\n\n"
        f"@tile.kernel\ndef shifted(z: Partition[f32], x: Tensor[f32]) -> None:\n    z.store({_TRAP_FORMS[form]})\n"
    )
    path = tmp_path / "shifted.py"
    path.write_text(source)
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib

        module = importlib.import_module("shifted")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("shifted", None)
    with pytest.raises(KernelTrapError, match=r"tile index \(2,\) out of bounds"):
        module.shifted(tile.zeros((128,), f32).partition((64,)), tile.zeros((128,), f32)).sync_on(CPU.new_stream())
    specs = [("z", "partition", "f32", (128,), (64,)), ("x", "tensor", "f32", (128,), None)]
    ptx = _compile_tile(module.shifted, specs, "sm_90a")
    assert "trap;" in ptx


def test_build_finds_autotuned_kernels_and_generic_partitions(tmp_path: Path) -> None:
    (tmp_path / "kernels.py").write_text(
        "from typing import Any\nfrom safekernels import simt, tile\nfrom safekernels.dtypes import f32\n"
        "from safekernels.simt import DisjointSlice, Slice, thread\nfrom safekernels.tile import Partition, Tensor\n\n"
        "@simt.autotune(configs=[128, 256])\n@simt.kernel\n@simt.launch_contract(domain=1)\n"
        "def scale(a: Slice[f32], c: DisjointSlice[f32]) -> None:\n    idx = thread.index_1d()\n    i = idx.get()\n"
        "    if (o := c.get_mut(idx)) is not None:\n        o.set(a[i] * 2.0)\n\n"
        "@tile.kernel\ndef copy_any(z: Partition[Any], x: Tensor[Any]) -> None:\n    z.store(tile.load_like(x, z))\n\n"
        "tile.specialize(copy_any, tile.spec((256,), f32, tile=(128,)), tile.spec((256,), f32))\n"
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "safekernels", "build", "kernels.py", "--emit", "ptx", "-o", str(out), "--no-check"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert (out / "scale.ptx").exists() and (out / "copy_any.ptx").exists()
    import json

    manifest = json.loads((out / "manifest.json").read_text())
    tile_entry = next(e for e in manifest["kernels"] if e["name"] == "copy_any")
    assert [p[2] for p in tile_entry["params"]] == ["f32", "f32"]


def test_conversions_the_generator_found() -> None:
    """float -> int saturates (NaN gives 0) on both executors; bool <-> bf16/fp8 and fp8 -> bool compile;
    unary `-` of a bool tile is refused by the op table (both executors)."""
    from language_generator import tile_cases
    from language_runner import compile_tile_case, run_tile

    wanted = {
        "tile:astype[bf16->u8]@16 w4",
        "tile:astype[f8e5m2->bool]@200/64 w4",
        "tile:astype[bool->bf16]@16",
        "tile:neg[bool]@200/64 w1",
        "tile:floordiv[i16]@16 w4",
    }
    cases = {c.name: c for c in tile_cases() if c.name in wanted}
    assert set(cases) == wanted
    for name, case in cases.items():
        cpu = run_tile(case, CPU)
        gpu = compile_tile_case(case, "sm_90a")
        assert (cpu.kind, cpu.code) == (gpu.kind, gpu.code), (name, cpu, gpu)
    (u8,) = run_tile(cases["tile:astype[bf16->u8]@16 w4"], CPU).values
    assert u8.dtype == np.uint8 and 255 not in u8  # negatives saturate to 0 instead of wrapping
    assert run_tile(cases["tile:neg[bool]@200/64 w1"], CPU).code == "SK023"
    ptx = compile_tile_case(cases["tile:floordiv[i16]@16 w4"], "sm_90a").detail
    assert "trap;" in ptx  # a zero divisor still traps, only the idle slots of the 16-element tile divide by 1
