"""On the GPU (H200): kernels that use `setmaxnreg` loaded through the driver's whole-program JIT
(`codegen.whole_program`), checked against torch: the warp-specialized GEMM and flash attention with a
producer warpgroup (`warpspec.ATTENTION`), with and without the consumers taking turns (`wgmma_sync.PINGPONG`),
causal and not, head dims 64 and 128.

Each kernel is compiled uncached (the switches are module flags, not part of the cache key) and loaded with
`TileGpuKernel`, which takes the driver route for these kernels.
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


def _compile(
    kernel: Any, values: list[Any], *, gemm_ws: bool = False, attention_ws: bool = False, pingpong: bool = False
) -> Any:
    from safekernels.codegen.tile import warpspec, wgmma_sync
    from safekernels.codegen.tile.pipeline import compile_tile
    from safekernels.codegen.tile.specialize import specialize

    saved = warpspec.ENABLED, warpspec.ATTENTION, wgmma_sync.PINGPONG
    warpspec.ENABLED, warpspec.ATTENTION, wgmma_sync.PINGPONG = gemm_ws, attention_ws, pingpong
    try:
        infos, rank = specialize(kernel, values)
        return compile_tile(
            kernel.fn, infos, rank, arch="sm_90a", num_warps=kernel.num_warps, use_cache=False,
            fast_math=kernel.fast_math,
        )  # fmt: skip
    finally:
        warpspec.ENABLED, warpspec.ATTENTION, wgmma_sync.PINGPONG = saved


def _rel(got: Any, want: Any) -> float:
    g, w = got.double(), want.double()
    assert not g.isnan().any(), "unwritten (NaN) elements"
    return float((g - w).norm() / w.norm().clamp_min(1e-30))


def _registers(loaded: Any) -> int:
    from safekernels.runtime.cuda_backend import _driver, check

    driver = _driver()
    attr = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_NUM_REGS
    return int(check(driver.cuFuncGetAttribute(attr, loaded.function), "cuFuncGetAttribute"))


@pytest.mark.parametrize("n", [1024, 1000])
def test_warp_specialized_gemm_through_the_driver_route(env: Any, n: int) -> None:
    torch, device = env
    from bench.kernels import tile_kernels as K
    from bench.tile_harness import arg
    from safekernels.tile.gpu_launch import TileGpuKernel

    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    c = torch.full((n, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    values = [arg(c, (K.BM, K.BN)), arg(a), arg(b)]
    compiled = _compile(K.gemm_bf16, values, gemm_ws=True)
    assert compiled.route == "driver" and "setmaxnreg" in compiled.ptx
    loaded = TileGpuKernel(compiled, device.backend)
    assert "C7504" not in loaded.jit_log  # setmaxnreg honoured (an empty log: the driver's JIT cache answered)
    # the whole-program compile caps the 384-thread kernel at 168 registers at entry (65536 / 384, rounded
    # down to 8), where nvJitLink's relocatable compile reports what the consumers use under that cap
    assert _registers(loaded) == 168
    loaded.launch(K.gemm_bf16.params, values, (-(-n // K.BM), -(-n // K.BN)), torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    assert _rel(c, a.float() @ b.float()) < 1e-2


@pytest.mark.parametrize("pingpong", [False, True])
@pytest.mark.parametrize("d", [128, 64])
@pytest.mark.parametrize("causal", [False, True])
def test_attention_with_a_producer_warpgroup_vs_sdpa(env: Any, d: int, causal: bool, pingpong: bool) -> None:
    torch, device = env
    from bench.kernels import attention_plain as P
    from bench.tile_harness import arg
    from safekernels.tile.gpu_launch import TileGpuKernel

    b, h, s = 2, 4, 1024
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
    out = torch.full((b * h * s, d), float("nan"), device="cuda", dtype=torch.bfloat16)
    kern = P.make_attention_plain(128, 128, d)
    values = [arg(out, (128, d)), *(arg(x.view(b * h * s, d)) for x in (q, k, v)), s, 1.0 / math.sqrt(d), int(causal)]
    compiled = _compile(kern, values, attention_ws=True, pingpong=pingpong)
    assert compiled.route == "driver" and compiled.threads == 384
    loaded = TileGpuKernel(compiled, device.backend)
    assert "C7504" not in loaded.jit_log
    for _ in range(3):  # three launches on fresh inputs: a race would move the error
        for x in (q, k, v):
            x.copy_(torch.randn_like(x))
        out.fill_(float("nan"))
        loaded.launch(kern.params, values, (b * h * s // 128, 1), torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
        assert _rel(out.view(b, h, s, d), want) < 1e-2
