"""CI without a GPU: the training kernels compile for the H200 (sm_90a) to the instructions they are written
for: every attention matmul on warpgroup MMA (`wgmma`, K/Q/dO blocks by the copy engine), none on the
`mma.sync` fallback, and the norm kernels with 16-byte loads; nvJitLink assembles each."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from safekernels.codegen.tile import loop_split
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from examples.training import attention, norms

F32, BF16, I32 = dtype_of("f32"), dtype_of("bf16"), dtype_of("i32")
ROWS, D = 2 * 512, 128
SCALARS = [("scalar", I32, (), None), ("scalar", F32, (), None), ("scalar", I32, (), None)]


def _compile(kernel: Any, spec: list[tuple[str, Any, tuple[int, ...], Any]], grid_rank: int, arch: str) -> Any:
    params = [
        param_info(f"p{i}", kind, dt) if kind == "scalar" else param_info(f"p{i}", kind, dt, shape, tile)
        for i, (kind, dt, shape, tile) in enumerate(spec)
    ]
    return compile_tile(kernel.fn, params, grid_rank, arch=arch, use_cache=False, num_warps=kernel.num_warps)


def _tensor(dt: Any = BF16, shape: tuple[int, ...] = (ROWS, D)) -> tuple[str, Any, tuple[int, ...], None]:
    return ("tensor", dt, shape, None)


def _attention_case(which: str) -> tuple[Any, list[Any], int]:
    """(kernel, spec, wgmma instructions per loop iteration and prologue) of one d=128 kernel."""
    ks = attention.flash_kernels(D)
    lse = attention.lse_shape(ROWS)
    if which == "forward":  # q @ k^T (D/16 k16 steps) and p @ v (BN/16)
        spec: list[Any] = [
            ("partition", BF16, (ROWS, D), (attention.FWD_BM, D)),
            ("partition", F32, lse, (attention.FWD_BM // attention.LSE_W, attention.LSE_W)),
        ]
        return ks.forward, spec + [_tensor()] * 3 + SCALARS, D // 16 + attention.FWD_BN // 16
    if which == "dq":  # s and dO V^T (D/16 each), dS @ K (dq_bn/16)
        spec = [
            ("partition", BF16, (ROWS, D), (ks.dq_bm, D)),
            ("partition", F32, lse, (ks.dq_bm // attention.LSE_W, attention.LSE_W)),
        ]
        spec += [_tensor()] * 5 + [_tensor(F32, lse)]
        return ks.bwd_dq, spec + SCALARS, 2 * D // 16 + ks.dq_bn // 16
    out = [("partition", BF16, (ROWS, D), (ks.kv_bn, D))] * 2
    if which == "fused":  # ... and dQ^T = K^T dS^T (kv_bn/16, A read MN-major), its atomics
        spec = out + [("atomic", F32, (ROWS, D), None)] + [_tensor()] * 4 + [_tensor(F32, lse)] * 2
        return ks.bwd_fused, spec + SCALARS, 2 * D // 16 + 2 * ks.kv_bm // 16 + ks.kv_bn // 16
    spec = out + [_tensor()] * 4 + [_tensor(F32, lse)] * 2
    return ks.bwd_dkdv, spec + SCALARS, 2 * D // 16 + 2 * ks.kv_bm // 16  # S^T, dP^T; P^T dO, dS^T Q


@pytest.mark.parametrize("which", ["forward", "dq", "dkdv", "fused"])
def test_attention_kernels_run_on_warpgroup_mma(which: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop_split, "ENABLED", False)  # one key loop body (codegen.tile.loop_split lowers two)
    kernel, spec, wgmmas = _attention_case(which)
    compiled = _compile(kernel, spec, 2, "sm_90a")
    assert compiled.cubin[:4] == b"\x7fELF" and compiled.threads == 256
    assert compiled.ptx.count("wgmma.mma_async") == wgmmas
    assert "mma.sync" not in compiled.ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in compiled.ptx  # loop operands by TMA
    if which == "fused":  # dQ's share added from the accumulator registers: d * kv_bm / 256 atomics a thread
        ks = attention.flash_kernels(D)
        assert compiled.ptx.count("p, 1, 1, 1, 1;") == ks.kv_bn // 16
        atomics = compiled.ptx.count("atom.global.add.f32") + compiled.ptx.count("red.global.add.f32")
        assert atomics == D * ks.kv_bm // 256


def test_norm_backward_kernels_use_wide_loads() -> None:
    rows, n = 4096, 4096
    ks = norms.norm_kernels(n)
    stats = _tensor(F32, (rows, 1))
    dx = _compile(
        ks.rms_bwd_dx,
        [
            ("partition", BF16, (rows, n), (ks.rbx, n)),
            _tensor(BF16, (rows, n)),
            _tensor(BF16, (rows, n)),
            _tensor(BF16, (n,)),
            stats,
        ],
        2,
        "sm_90",
    )
    parts = norms.partial_rows(rows)
    partial = _compile(
        ks.ln_bwd_partial,
        [("partition", F32, (parts, n), (1, norms.BC))] * 2
        + [_tensor(BF16, (rows, n)), _tensor(BF16, (rows, n)), stats, stats],
        2,
        "sm_90",
    )
    for compiled in (dx, partial):
        assert compiled.cubin[:4] == b"\x7fELF"
        assert "ld.global.nc.v4" in compiled.ptx
