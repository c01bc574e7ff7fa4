"""CI without a GPU: `tile.matmul(..., input_precision="tf32")`, the opt-in to TF32 tensor cores for f32.

The rounding (`round_to_tf32`, PTX `cvt.rna.tf32.f32`: nearest, ties away from zero) against hand-made bit
patterns; the CPU executor against numpy's emulation; the PTX for sm_90a and sm_80 (mma.sync m16n8k8 .tf32 with
every operand rounded by `cvt.rna`, or the FMA path for shapes the tensor cores cannot tile), assembled by
nvJitLink; the default staying exact; the keyword in the cache key; refusals alike on both executors.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import tile
from safekernels.codegen.tile.pipeline import cache_key, compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of, f16, f32
from safekernels.tile import Partition, Tensor
from safekernels.tile.ops import round_to_tf32

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf32_kernels as K

F32 = dtype_of("f32")
MMA_TF32 = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"


def _bits(x: float | np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float32).view(np.uint32)


def _f(bits: int) -> np.float32:
    value: np.float32 = np.array([bits], dtype=np.uint32).view(np.float32)[0]
    return value


@pytest.mark.parametrize(
    ("given", "want"),
    [
        (0x3F800FFF, 0x3F800000),  # below half of the dropped unit: down
        (0x3F801000, 0x3F802000),  # exactly half: away from zero (rna), not to even
        (0x3F803000, 0x3F804000),  # half again, odd kept bit: away from zero as well
        (0xBF801000, 0xBF802000),  # negative tie: away from zero (more negative)
        (0x3FFFF000, 0x40000000),  # carry into the exponent
        (0x7F7FFFFF, 0x7F800000),  # the largest f32 rounds past the largest TF32: inf
        (0x00000FFF, 0x00000000),  # subnormals round the same way
        (0x00001000, 0x00002000),
        (0x7F800000, 0x7F800000),  # inf stays
        (0x80000000, 0x80000000),  # -0 stays
    ],
)
def test_tf32_rounding_is_nearest_ties_away_like_cvt_rna(given: int, want: int) -> None:
    assert int(_bits(round_to_tf32(np.array([_f(given)])))[0]) == want


def test_tf32_rounding_keeps_nan_and_is_the_identity_on_narrower_floats() -> None:
    nan_low_payload = np.array([_f(0x7F800001), _f(0xFFC00000)])
    assert np.isnan(round_to_tf32(nan_low_payload)).all()
    f16_values = np.random.default_rng(1).uniform(-100, 100, 1000).astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(round_to_tf32(f16_values), f16_values)
    assert round_to_tf32(np.array([1 + 2.0**-12], dtype=np.float32))[0] == 1.0


@pytest.mark.parametrize("name", sorted(K.CASES))
def test_cpu_executor_matches_numpys_tf32_emulation(name: str) -> None:
    got = K.run(name, sk.Device.cpu())
    want = K.reference(name)
    assert got.dtype == np.float32
    assert (np.abs(got - want) <= K.sum_bound(name, want)).all()


def test_opting_in_changes_the_numbers_and_the_default_is_exact() -> None:
    tf32, ieee = K.run("tf32_once", sk.Device.cpu()), K.run("ieee_once", sk.Device.cpu())
    exact = K.inputs("ieee_once")[0].astype(np.float64) @ K.inputs("ieee_once")[1].astype(np.float64) + 0.25
    assert np.abs(ieee - exact).max() < 64 * 2.0**-24 * np.abs(exact).max()
    assert np.abs(tf32 - exact).max() > 100 * np.abs(ieee - exact).max()  # 13 mantissa bits fewer
    # the documented bound against the exact product: (2^-10 + K 2^-23) * sum_k |a_ik| |b_kj|
    a, b = K.inputs("tf32_once")
    scale = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)
    assert (np.abs(tf32 - exact) <= (2.0**-10 + 64 * 2.0**-23) * scale).all()


def _infos(name: str) -> list[Any]:
    _, (m, n, k), (bm, bn), _, _ = K.CASES[name]
    return [
        param_info("z", "partition", F32, (m, n), (bm, bn)),
        param_info("x", "tensor", F32, (m, k)),
        param_info("y", "tensor", F32, (k, n)),
    ]


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
@pytest.mark.parametrize("name", ["tf32_once", "tf32_loop"])
def test_tf32_matmul_runs_on_mma_m16n8k8_with_rna_rounded_operands(name: str, arch: str) -> None:
    kernel = K.CASES[name][0]
    c = compile_tile(kernel.fn, _infos(name), 2, arch=arch, use_cache=False)
    assert c.cubin[:4] == b"\x7fELF"  # nvJitLink assembled it for the target
    assert MMA_TF32 in c.ptx and "fma.rn.f32" not in c.ptx
    # the fragment registers the tensor cores read go through cvt.rna (4 of A and 2 of B per (mi, ni) pair)
    assert c.ptx.count("cvt.rna.tf32.f32") >= c.ptx.count(MMA_TF32) > 0


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
def test_a_shape_the_tensor_cores_cannot_tile_rounds_on_the_fma_path(arch: str) -> None:
    c = compile_tile(K.tf32_ragged.fn, _infos("tf32_ragged"), 2, arch=arch, use_cache=False)
    assert c.cubin[:4] == b"\x7fELF"
    assert "mma.sync" not in c.ptx and "fma.rn.f32" in c.ptx and "cvt.rna.tf32.f32" in c.ptx


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
def test_the_default_f32_matmul_stays_exact_fma(arch: str) -> None:
    c = compile_tile(K.ieee_once.fn, _infos("ieee_once"), 2, arch=arch, use_cache=False)
    assert c.cubin[:4] == b"\x7fELF"
    assert "fma.rn.f32" in c.ptx and "tf32" not in c.ptx and "mma.sync" not in c.ptx


def test_the_precision_is_part_of_the_cache_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Same kernel source, the precision from a module constant: a switch gives a new key and new code, never
    the other precision's cached cubin."""
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SAFEKERNELS_NO_CACHE", raising=False)
    infos = _infos("tf32_once")
    fn = K.by_constant.fn
    ieee_key = cache_key(fn, infos, 2, "sm_80", None)
    assert "mma.sync" not in compile_tile(fn, infos, 2, arch="sm_80").ptx
    monkeypatch.setattr(K, "PRECISION", "tf32")
    assert cache_key(fn, infos, 2, "sm_80", None) != ieee_key
    again = compile_tile(fn, infos, 2, arch="sm_80")
    assert not again.from_cache and MMA_TF32 in again.ptx
    assert compile_tile(fn, infos, 2, arch="sm_80").from_cache


@tile.kernel
def bad_precision(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    acc = tile.zeros((16, 16), f32)
    z.store(tile.matmul(x.load((0, 0), (16, 16)), y.load((0, 0), (16, 16)), acc, input_precision="bf16x3"))


@tile.kernel
def runtime_precision(z: Partition[f32], x: Tensor[f32], y: Tensor[f32], p: f32) -> None:
    acc = tile.zeros((16, 16), f32)
    z.store(tile.matmul(x.load((0, 0), (16, 16)), y.load((0, 0), (16, 16)), acc, input_precision=p))  # type: ignore[arg-type]


@tile.kernel
def opted_in_f16(z: Partition[f32], x: Tensor[f16], y: Tensor[f16]) -> None:
    acc = tile.zeros((16, 16), f32)
    z.store(tile.matmul(x.load((0, 0), (16, 16)), y.load((0, 0), (16, 16)), acc, input_precision="tf32"))


def _refusal(call: Any) -> tuple[str, str, str]:
    """(code, path:line:col, message) of the refusal `call` raises."""
    from ownership_check.diagnostics import DiagnosticError

    with pytest.raises(DiagnosticError) as info:
        call()
    d = info.value.diagnostics[0]
    return d.code, str(info.value).split(": ")[0], d.message


@pytest.mark.parametrize(("kernel", "code"), [(bad_precision, "SK023"), (runtime_precision, "SK008")])
def test_a_bad_input_precision_is_refused_alike_on_both_executors(kernel: Any, code: str) -> None:
    scalar = kernel is runtime_precision
    infos = [param_info("z", "partition", F32, (16, 16), (16, 16))]
    infos += [param_info("x", "tensor", F32, (16, 16)), param_info("y", "tensor", F32, (16, 16))]
    if scalar:
        infos.append(param_info("p", "scalar", F32))
    gpu = _refusal(lambda: compile_tile(kernel.fn, infos, 2, arch="sm_90a", use_cache=False))

    def on_cpu() -> None:
        dev = sk.Device.cpu()
        args = [tile.zeros((16, 16), f32, device=dev).partition((16, 16))]
        args += [tile.zeros((16, 16), f32, device=dev), tile.zeros((16, 16), f32, device=dev)]
        kernel(*args, *([1.0] if scalar else [])).sync_on(dev.new_stream())

    cpu = _refusal(on_cpu)
    assert gpu == cpu and gpu[0] == code, (gpu, cpu)
    lines, first = inspect.getsourcelines(kernel.fn)
    line = first + next(i for i, text in enumerate(lines) if "input_precision=" in text)
    assert "input_precision" in gpu[2] and f"test_tf32_matmul.py:{line}:" in gpu[1], gpu


def test_opted_in_f16_inputs_is_the_identity_and_uses_the_f16_tensor_cores() -> None:
    infos = [param_info("z", "partition", F32, (16, 16), (16, 16))]
    f16s = dtype_of("f16")
    infos += [param_info("x", "tensor", f16s, (16, 16)), param_info("y", "tensor", f16s, (16, 16))]
    c = compile_tile(opted_in_f16.fn, infos, 2, arch="sm_80", use_cache=False)
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in c.ptx and "tf32" not in c.ptx
