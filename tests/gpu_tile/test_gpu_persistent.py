"""On the GPU (H200): the persistent TMA GEMM (codegen.tile.persistent) against torch, element by element.

The shapes give every CTA several tiles (more tiles than SMs), ragged M/N/K edges, K shorter than the copy
prologue (one k-step), and CTA counts forced far below the tile count (3 CTAs walking 289 tiles), so the
mbarrier phases carried from tile to tile and the next tile's prologue issued before the epilogue are
exercised for many tiles in a row.  Outputs are poisoned with NaN first (an unwritten tile fails).
Run: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="module")
def env() -> Any:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    if torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("the persistent TMA GEMM is the sm_90a path")
    from bench.tile_harness import Runner

    return torch, Runner()


def _check(torch: Any, got: Any, want: Any, a: Any, b: Any, extra: Any = None) -> None:
    """Each element within one output ulp (relative) plus an f32 accumulation bound over its K products."""
    g, w = got.double(), want.double()
    assert not torch.isnan(g).any(), "unwritten (NaN) elements"
    ulp = {torch.float16: 2.0**-10, torch.bfloat16: 2.0**-7}[got.dtype]
    scale = a.double().abs() @ b.double().abs()
    if extra is not None:
        scale = scale + extra.double().abs()
    bound = ulp * w.abs() + 8 * a.shape[1] * 2.0**-24 * scale + 1e-30
    bad = int(((g - w).abs() > bound).sum())
    assert bad == 0, f"{bad} of {g.numel()} elements outside their bound"


def _gemm(env: Any, shape: tuple[int, int, int], dtype: str, max_blocks: int | None = None) -> None:
    torch, run = env
    from bench.kernels import tile_kernels as K
    from bench.tile_harness import arg
    from safekernels.tile.gpu_launch import tile_kernel_for

    dt = getattr(torch, dtype)
    kern = K.gemm_f16 if dtype == "float16" else K.gemm_bf16
    m, n, k = shape
    a = torch.randn(m, k, device="cuda", dtype=dt)
    b = torch.randn(k, n, device="cuda", dtype=dt)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=dt)
    values = (arg(c, (K.BM, K.BN)), arg(a), arg(b))
    loaded = tile_kernel_for(kern, values, run.device)
    assert loaded.compiled.persistent
    assert loaded.max_blocks == torch.cuda.get_device_properties(0).multi_processor_count
    saved = loaded.max_blocks
    if max_blocks is not None:
        loaded.max_blocks = max_blocks
    try:
        run(kern, *values)
        torch.cuda.synchronize()
    finally:
        loaded.max_blocks = saved
    _check(torch, c, a.float() @ b.float(), a, b)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(2148, 4160, 320), (4096, 4096, 512), (3000, 3000, 64), (1000, 9000, 200)])
def test_many_tiles_per_cta(env: Any, shape: tuple[int, int, int], dtype: str) -> None:
    _gemm(env, shape, dtype)


@pytest.mark.parametrize(("shape", "ctas"), [((2148, 4160, 320), 3), ((640, 1280, 64), 1), ((300, 704, 136), 2)])
def test_few_ctas_walk_every_tile(env: Any, shape: tuple[int, int, int], ctas: int) -> None:
    _gemm(env, shape, "float16", max_blocks=ctas)


def test_fused_epilogue_with_many_tiles(env: Any) -> None:
    torch, run = env
    from bench.kernels import tile_kernels as K
    from bench.tile_harness import arg

    m, n, k = 1900, 5000, 256
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    bias = torch.randn(n, device="cuda")
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
    run(K.gemm_bias_relu, arg(c, (K.BM, K.BN)), arg(a), arg(b), arg(bias))
    torch.cuda.synchronize()
    _check(torch, c, torch.relu(a.float() @ b.float() + bias), a, b, bias)


def test_public_path_eager(env: Any) -> None:
    """`k(...).sync_on(stream)` (the launch plan's checked path, one CTA per SM) gives torch's result."""
    torch, _ = env
    import numpy as np

    import safekernels as sk
    from bench.kernels import tile_kernels as K
    from safekernels import tile
    from safekernels.dtypes import f16

    m, n, k = 2100, 2300, 192
    rng = np.random.default_rng(3)
    a_np = rng.standard_normal((m, k)).astype(np.float16)
    b_np = rng.standard_normal((k, n)).astype(np.float16)
    stream = sk.Device(0).new_stream()
    c = tile.zeros((m, n), f16).partition((K.BM, K.BN))
    a, b = tile.from_numpy(a_np), tile.from_numpy(b_np)
    c, a, b = K.gemm_f16(c, a, b).sync_on(stream)
    want = torch.from_numpy(a_np).float() @ torch.from_numpy(b_np).float()
    got = torch.from_numpy(c.unpartition().to_numpy(stream).astype(np.float32))
    _check(torch, got.half(), want, torch.from_numpy(a_np), torch.from_numpy(b_np))
