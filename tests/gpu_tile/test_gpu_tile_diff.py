"""On the GPU: tile kernels compiled by codegen.tile vs torch and the CPU executor, random shapes
including ragged edges.

Run on the device machine: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.  Imports neither
libcst nor mypy.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))


@pytest.fixture(scope="module")
def env() -> Any:
    torch = pytest.importorskip("torch")
    from bench.tile_harness import Runner

    return torch, Runner()


def _poison(torch: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    return torch.full(shape, float("nan"), device="cuda", dtype=dtype)


def _close(got: Any, want: Any, tol: float) -> None:
    g, w = got.double().cpu().numpy(), want.double().cpu().numpy()
    assert not np.isnan(g).any(), "unwritten (NaN) elements"
    err = np.linalg.norm(g - w) / max(np.linalg.norm(w), 1e-30)
    assert err <= tol, err


def _close_per_element(got: Any, want: Any, a: Any, b: Any, extra: Any = None) -> None:
    """GEMM check element by element (a norm lets a few wrong elements through): each |got - want| must be
    within the output's rounding (one ulp of its dtype, relative) plus an f32 accumulation bound
    `8 * K * 2^-24 * (|a| @ |b|)` for that element (the order of the K additions may differ from cuBLAS's)."""
    import torch

    g, w = got.double().cpu(), want.double().cpu()
    assert not torch.isnan(g).any(), "unwritten (NaN) elements"
    out_ulp = {torch.float32: 2.0**-23, torch.float16: 2.0**-10, torch.bfloat16: 2.0**-7}[got.dtype]
    scale = a.double().abs() @ b.double().abs()
    if extra is not None:
        scale = scale + extra.double().abs()
    k = a.shape[1]
    bound = out_ulp * w.abs() + 8 * k * 2.0**-24 * scale.cpu() + 1e-30
    bad = (g - w).abs() > bound
    count = int(bad.sum())
    worst = float(((g - w).abs() / bound).max())
    assert count == 0, f"{count} of {g.numel()} elements outside their bound (worst: {worst:.2f}x the bound)"


def _arg(*a: Any) -> Any:
    from bench.tile_harness import arg

    return arg(*a)


@pytest.mark.parametrize("seed", range(4))
def test_elementwise_random(env: Any, seed: int) -> None:
    torch, run = env
    import add_tile

    from bench.kernels import tile_kernels as K

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 50_000))
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    z = _poison(torch, (n,), torch.float32)
    run(add_tile.add, _arg(z, (add_tile.TILE,)), _arg(x), _arg(y))
    _close(z, x + y, 1e-7)
    run(K.saxpy, _arg(z, (K.VEC_TILE,)), 0.5, _arg(x), _arg(y))
    _close(z, 0.5 * x + y, 1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_softmax_example_random(env: Any, seed: int) -> None:
    torch, run = env
    import softmax_tile

    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(1, 300)), int(rng.integers(1, softmax_tile.BN + 1))
    x = torch.randn(m, n, device="cuda") * 4
    out = _poison(torch, (m, n), torch.float32)
    run(softmax_tile.softmax, _arg(out, (softmax_tile.BM, softmax_tile.BN)), _arg(x))
    _close(out, torch.softmax(x.double(), 1), 1e-5)
    cpu_got, _ = softmax_tile.run(__import__("safekernels").Device.cpu(), 7, 9, seed)
    assert cpu_got.shape == (7, 9)


@pytest.mark.parametrize("seed", range(3))
def test_row_kernels(env: Any, seed: int) -> None:
    torch, run = env
    from bench.kernels import tile_kernels as K

    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(1, 64)), int(rng.integers(1, K.ROW + 1))
    x = torch.randn(m, n, device="cuda")
    out = _poison(torch, (m, n), torch.float32)
    run(K.softmax, _arg(out, (1, K.ROW)), _arg(x))
    _close(out, torch.softmax(x.double(), 1), 1e-5)
    w, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    run(K.layernorm, _arg(out, (1, K.ROW)), _arg(x), _arg(w), _arg(b), 1e-5)
    ref = torch.nn.functional.layer_norm(x.double(), (n,), w.double(), b.double(), 1e-5)
    _close(out, ref, 1e-5)
    rs = _poison(torch, (m,), torch.float32)
    run(K.row_sum, _arg(rs, (K.RED_ROWS,)), _arg(x))
    _close(rs, x.double().sum(1), 1e-5)
    run(K.row_max, _arg(rs, (K.RED_ROWS,)), _arg(x))
    _close(rs, x.max(1).values, 0)


@pytest.mark.parametrize("seed", range(3))
def test_transpose_random(env: Any, seed: int) -> None:
    torch, run = env
    from bench.kernels import tile_kernels as K

    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(1, 300)), int(rng.integers(1, 300))
    x = torch.randn(m, n, device="cuda")
    out = _poison(torch, (n, m), torch.float32)
    run(K.transpose, _arg(out, (K.T_TILE, K.T_TILE)), _arg(x))
    assert torch.equal(out, x.t())


@pytest.mark.parametrize("shape", [(300, 200, 130), (64, 64, 32), (257, 129, 72)])
def test_matmul_example(env: Any, shape: tuple[int, int, int]) -> None:
    torch, run = env
    import matmul_tile

    m, n, k = shape
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = _poison(torch, (m, n), torch.float32)
    run(matmul_tile.matmul, _arg(c, (matmul_tile.BM, matmul_tile.BN)), _arg(a), _arg(b))
    _close(c, a.float() @ b.float(), 1e-3)
    _close_per_element(c, a.float() @ b.float(), a, b)


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(256, 256, 256), (264, 392, 200), (130, 250, 96)])
def test_gemm_random(env: Any, dtype_name: str, shape: tuple[int, int, int]) -> None:
    torch, run = env
    from bench.kernels import tile_kernels as K

    dt = getattr(torch, dtype_name)
    kern = K.gemm_f16 if dtype_name == "float16" else K.gemm_bf16
    m, n, k = shape
    a = torch.randn(m, k, device="cuda", dtype=dt)
    b = torch.randn(k, n, device="cuda", dtype=dt)
    c = _poison(torch, (m, n), dt)
    run(kern, _arg(c, (K.BM, K.BN)), _arg(a), _arg(b))
    _close_per_element(c, a.float() @ b.float(), a, b)
    if dtype_name == "float16":
        bias = torch.randn(n, device="cuda")
        run(K.gemm_bias_relu, _arg(c, (K.BM, K.BN)), _arg(a), _arg(b), _arg(bias))
        _close_per_element(c, torch.relu(a.float() @ b.float() + bias), a, b, bias)
