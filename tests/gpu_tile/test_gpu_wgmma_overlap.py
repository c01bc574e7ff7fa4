"""On the GPU (H200): the warp-uniform wgmma descriptors (`codegen.tile.wgmma.UNIFORM`) and the key loop's last
matmul carried in flight across the back edge (`codegen.tile.wgmma_sync.CARRY`, with the pair ping-pong
`wgmma_sync.PAIR` where the loop is split) change where the instructions wait, not what they compute.  The plain
attention program, causal and not, with the loop split and without, at sizes where the key loop runs once, twice
and many times, against the same program built with all off (bitwise) and against SDPA in float64; the
128x256x64 GEMM with the uniform descriptors against the build without (bitwise).
Run: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.
"""

from __future__ import annotations

import math
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
    import safekernels as sk

    return torch, sk.Device(0)


def _build(kern: Any, vals: list[Any], uniform: bool, carry: bool, split: bool = True) -> Any:
    """`kern` compiled uncached for sm_90a with the switches as given (they are not part of the cache key)."""
    from bench.tensor_core_bench import compile_variant
    from safekernels.codegen.tile import loop_split, wgmma, wgmma_sync

    saved = wgmma.UNIFORM, wgmma_sync.CARRY, loop_split.ENABLED
    wgmma.UNIFORM, wgmma_sync.CARRY, loop_split.ENABLED = uniform, carry, split
    try:
        return compile_variant(kern, vals, {})
    finally:
        wgmma.UNIFORM, wgmma_sync.CARRY, loop_split.ENABLED = saved


def _launch(env: Any, compiled: Any, kern: Any, vals: list[Any], grid: tuple[int, ...], out: Any) -> Any:
    torch, device = env
    from safekernels.tile.gpu_launch import TileGpuKernel

    out.fill_(float("nan"))
    TileGpuKernel(compiled, device.backend).launch(kern.params, vals, grid, torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    return out.clone()


@pytest.mark.parametrize("split", [True, False])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize(("d", "s"), [(128, 128), (128, 256), (128, 640), (64, 1024)])
def test_attention_carried_matmul_is_bitwise_the_waited_one(
    env: Any, d: int, s: int, causal: bool, split: bool
) -> None:
    torch, _ = env
    from bench.kernels import attention_plain as P
    from bench.tile_harness import arg

    b, h = 2, 3
    qkv = [torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv"]
    out = torch.empty(b * h * s, d, device="cuda", dtype=torch.bfloat16)
    flat = [x.view(b * h * s, d) for x in qkv]
    kern = P.make_attention_plain(128, 128, d)
    vals = [arg(out, (128, d)), *(arg(x) for x in flat), s, 1.0 / math.sqrt(d), int(causal)]
    grid = (b * h * s // 128, 1)
    outs = {}
    for flags in ((False, False), (True, False), (True, True)):
        outs[flags] = _launch(env, _build(kern, vals, *flags, split=split), kern, vals, grid, out)
    want = torch.nn.functional.scaled_dot_product_attention(*(x.double() for x in qkv), is_causal=causal)
    for flags, got in outs.items():
        assert not bool(got.isnan().any()), flags
        assert torch.equal(got, outs[(False, False)]), flags
    got = outs[(True, True)].view(b, h, s, d).double()
    assert float((got - want).norm() / want.norm()) < 1e-2
    assert float((got - want).abs().max()) < 3e-2


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_gemm_uniform_descriptors_bitwise(env: Any, dtype: str) -> None:
    torch, _ = env
    from bench.kernels import tile_kernels as K
    from bench.tile_harness import arg

    dt = getattr(torch, dtype)
    kern = K.gemm_f16 if dtype == "float16" else K.gemm_bf16
    m, n, k = 512, 768, 640
    a, bm = torch.randn(m, k, device="cuda", dtype=dt), torch.randn(k, n, device="cuda", dtype=dt)
    c = torch.empty(m, n, device="cuda", dtype=dt)
    vals = [arg(c, (K.BM, K.BN)), arg(a), arg(bm)]
    grid = (m // K.BM, n // K.BN)
    plain = _launch(env, _build(kern, vals, False, False), kern, vals, grid, c)
    uniform = _launch(env, _build(kern, vals, True, False), kern, vals, grid, c)
    assert torch.equal(plain, uniform)
    want = a.double() @ bm.double()
    assert float((uniform.double() - want).norm() / want.norm()) < 5e-3


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize(("d", "s"), [(128, 640), (64, 1024)])
def test_attention_pingpong_pair_bitwise(
    env: Any, monkeypatch: pytest.MonkeyPatch, d: int, s: int, causal: bool
) -> None:
    """Ping-pong whose turn covers the carried `p @ v` and the next `q @ k^T` (off by default)."""
    torch, _ = env
    from bench.kernels import attention_plain as P
    from bench.tile_harness import arg
    from safekernels.codegen.tile import wgmma_sync

    b, h = 2, 3
    qkv = [torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv"]
    out = torch.empty(b * h * s, d, device="cuda", dtype=torch.bfloat16)
    kern = P.make_attention_plain(128, 128, d)
    vals = [arg(out, (128, d)), *(arg(x.view(b * h * s, d)) for x in qkv), s, 1.0 / math.sqrt(d), int(causal)]
    grid = (b * h * s // 128, 1)
    plain = _launch(env, _build(kern, vals, False, False), kern, vals, grid, out)
    monkeypatch.setattr(wgmma_sync, "PINGPONG", True)
    assert torch.equal(_launch(env, _build(kern, vals, True, True), kern, vals, grid, out), plain)
