"""On the GPU (H200): the tensor-core kernels vs torch, and vs the CPU executor on the same programs.

fp8 GEMM (e4m3, per-tensor scales, B given as its (N, K) transpose) vs `torch._scaled_mm` and a float64
reference; a GEMM against a transposed operand (read K-major, no copy); flash attention (causal and not,
head dims 64 and 128) vs `torch.nn.functional.scaled_dot_product_attention`.  Shapes: multiples of the
tiles, ragged M/N edges, and tiny.  Run: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from types import SimpleNamespace
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
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    from bench.tile_harness import Runner

    return torch, Runner()


def _arg(t: Any, tile_shape: tuple[int, ...] | None = None, dtype: str | None = None) -> Any:
    from bench.tile_harness import Arg, arg

    if dtype is None:
        return arg(t, tile_shape)
    from safekernels.dtypes import dtype_of

    assert t.is_contiguous()
    return Arg(tuple(t.shape), dtype_of(dtype), SimpleNamespace(ptr=t.data_ptr()), tile_shape)


def _rel(got: Any, want: Any) -> float:
    g, w = got.double(), want.double()
    assert not g.isnan().any(), "unwritten (NaN) elements"
    return float((g - w).norm() / w.norm().clamp_min(1e-30))


@pytest.mark.parametrize("shape", [(256, 256, 256), (300, 520, 384), (128, 256, 128), (1024, 1024, 2048)])
def test_fp8_gemm_vs_scaled_mm(env: Any, shape: tuple[int, int, int]) -> None:
    torch, run = env
    from bench.kernels import tensor_core_kernels as T

    m, n, k = shape
    a8 = (torch.randn(m, k, device="cuda") * 2).to(torch.float8_e4m3fn)
    b8 = (torch.randn(n, k, device="cuda") * 2).to(torch.float8_e4m3fn)  # B^T, row-major (N, K)
    sa, sb = 0.5, 0.25
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    run(
        T.gemm_fp8,
        _arg(c, (T.F8_BM, T.F8_BN)),
        _arg(a8.view(torch.uint8), dtype="f8e4m3"),
        _arg(b8.view(torch.uint8), dtype="f8e4m3"),
        sa,
        sb,
    )
    torch.cuda.synchronize()
    exact = (a8.double() @ b8.double().t()) * (sa * sb)
    # Accumulation: Hopper's fp8 wgmma (QGMMA) adds its products into the f32 accumulator with about 14 significand
    # bits, not 24 (measured by DeepSeek-V3's report; cuBLAS/_scaled_mm share it), so each of the k additions may
    # lose up to ~2^-13 of the running magnitude.  Then one bf16 rounding of the (scaled) result: 2^-8 relative.
    accumulation = k * 2.0**-13 * (a8.double().abs() @ b8.double().abs().t()) * sa * sb
    bound = (exact.abs() + accumulation) * 2.0**-8 + accumulation
    bad = int(((c.double() - exact).abs() > bound + 1e-30).sum())
    assert bad == 0, f"{bad} elements outside their bound"
    if m % 16 == 0 and n % 16 == 0:
        ref = torch._scaled_mm(
            a8,
            b8.t(),
            scale_a=torch.tensor(sa, device="cuda"),
            scale_b=torch.tensor(sb, device="cuda"),
            out_dtype=torch.bfloat16,
        )
        assert _rel(c, ref) < 1e-2


def test_fp8_gemm_cpu_executor_matches_gpu(env: Any) -> None:
    torch, run = env
    import safekernels as sk
    from bench.kernels import tensor_core_kernels as T
    from safekernels import tile
    from safekernels.dtypes import bf16, f8e4m3

    m, n, k = 256, 256, 256
    a8 = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b8 = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
    c = torch.zeros((m, n), device="cuda", dtype=torch.bfloat16)
    a8u, b8u = a8.view(torch.uint8), b8.view(torch.uint8)
    run(T.gemm_fp8, _arg(c, (T.F8_BM, T.F8_BN)), _arg(a8u, dtype="f8e4m3"), _arg(b8u, dtype="f8e4m3"), 1.0, 2.0)
    stream = sk.Device.cpu().new_stream()
    out = tile.zeros((m, n), bf16).partition((T.F8_BM, T.F8_BN))
    ta = tile.from_numpy(a8u.cpu().numpy(), dtype=f8e4m3)
    tb = tile.from_numpy(b8u.cpu().numpy(), dtype=f8e4m3)
    out, *_ = T.gemm_fp8(out, ta, tb, 1.0, 2.0).sync_on(stream)
    cpu = torch.from_numpy(out.unpartition().to_numpy(stream).reshape(m, n))
    diff = (c.float().cpu() - cpu).abs()
    assert float(diff.max()) <= float(cpu.abs().max()) * 2.0**-7  # at most one bf16 ulp apart


@pytest.mark.parametrize("n", [1024, 1000])
def test_gemm_against_transposed_operand(env: Any, n: int) -> None:
    torch, run = env
    sys.path.insert(0, str(ROOT / "tests" / "tile_codegen"))
    from test_tensor_core_compile import BM, BN, gemm_nt

    a = torch.randn(n, 512, device="cuda", dtype=torch.float16)
    bt = torch.randn(n, 512, device="cuda", dtype=torch.float16)
    c = torch.full((n, n), float("nan"), device="cuda")
    run(gemm_nt, _arg(c, (BM, BN)), _arg(a), _arg(bt))
    assert _rel(c, a.float() @ bt.float().t()) < 1e-4


def _sdpa(torch: Any, q: Any, k: Any, v: Any, causal: bool) -> Any:
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)


_ATTENTION_CASES = [
    ("attention", 1, 2, 256, 64),  # head dim 64: the example's kernel
    ("attention", 2, 4, 512, 128),
    ("attention", 1, 1, 128, 128),
    ("attention_pipelined", 2, 4, 512, 128),
    ("attention_pipelined", 1, 1, 128, 128),  # one key block: the pipelined next block is its own
]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize(("name", "b", "h", "s", "d"), _ATTENTION_CASES)
def test_attention_vs_sdpa(env: Any, causal: bool, name: str, b: int, h: int, s: int, d: int) -> None:
    torch, run = env
    import attention_tile

    from bench.kernels import tensor_core_kernels as T

    kern, bm = (attention_tile.attention, attention_tile.BM) if d == 64 else (getattr(T, name), T.ATT_BM)
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
    out = torch.full((b, h, s, d), float("nan"), device="cuda", dtype=torch.bfloat16)
    flat = [x.view(b * h * s, d) for x in (out, q, k, v)]
    run(kern, _arg(flat[0], (bm, d)), *(_arg(x) for x in flat[1:]), s, 1.0 / math.sqrt(d), int(causal))
    torch.cuda.synchronize()
    want = _sdpa(torch, q.double(), k.double(), v.double(), causal)
    assert _rel(out, want) < 1e-2
    assert float((out.double() - want).abs().max()) < 3e-2


def test_attention_cpu_executor_matches_gpu(env: Any) -> None:
    _ = env
    import attention_tile

    import safekernels as sk

    for causal in (False, True):
        cpu, ref = attention_tile.run(sk.Device.cpu(), 2, 128, causal, seed=5)
        gpu, _ = attention_tile.run(sk.Device(0), 2, 128, causal, seed=5)
        assert np.abs(gpu - cpu).max() < 2e-2 and np.abs(gpu - ref).max() < 2e-2


def _div_kernel() -> Any:
    from typing import Annotated

    from safekernels import tile
    from safekernels.dtypes import bf16, f32
    from safekernels.tile import Partition, Tensor

    @tile.kernel
    def div_beside_wgmma(
        s: Annotated[Partition[f32], tile.Dims(64, 64)],
        z: Annotated[Partition[f32], tile.Dims(64, 64)],
        q: Tensor[bf16],
        k: Tensor[bf16],
        x: Tensor[f32],
        y: Tensor[f32],
    ) -> None:
        s.store(
            tile.matmul(q.load((0, 0), (64, 64)), tile.transpose(k.load((0, 0), (64, 64))), tile.zeros((64, 64), f32))
        )
        z.store(tile.load_like(x, z) / tile.load_like(y, z))

    return div_beside_wgmma


def test_division_in_a_warpgroup_mma_kernel_is_correctly_rounded(env: Any) -> None:
    """A kernel with a synchronous wgmma divides without div.rn's subroutine (codegen.tile.wgmma_sync.divide_f32):
    the quotients are numpy's f32 quotients bit for bit, specials and subnormals included."""
    torch, run = env
    rng = np.random.default_rng(3)
    bits = rng.integers(0, 2**32, size=(2, 64 * 64), dtype=np.uint64).astype(np.uint32)
    x, y = bits.view(np.float32).reshape(2, 64, 64).copy()
    x[0, :8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 3.0, 1e-45]
    y[0, :8] = [0.0, 0.0, np.inf, 2.0, 1.0, 0.0, -np.inf, 3.0]
    y[1] = rng.standard_normal(64).astype(np.float32) * np.float32(1e-39)  # subnormal divisors
    q = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    k = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    s = torch.full((64, 64), float("nan"), device="cuda")
    z = torch.full((64, 64), float("nan"), device="cuda")
    xt, yt = torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda()
    run(_div_kernel(), _arg(s, (64, 64)), _arg(z, (64, 64)), _arg(q), _arg(k), _arg(xt), _arg(yt))
    torch.cuda.synchronize()
    assert _rel(s, q.double() @ k.double().t()) < 1e-2
    with np.errstate(all="ignore"):
        want = (x / y).view(np.uint32)
    got = z.cpu().numpy().view(np.uint32)
    nan_w, nan_g = np.isnan(want.view(np.float32)), np.isnan(got.view(np.float32))
    assert (nan_w == nan_g).all() and (got[~nan_w] == want[~nan_w]).all()


@pytest.mark.parametrize("causal", [False, True])
def test_attention_with_64_key_blocks_vs_sdpa(env: Any, causal: bool) -> None:
    """`attention_64` (the sm_90/sm_80 variant: `tile.exp`, 64-key blocks) still agrees with SDPA on sm_90a."""
    torch, run = env
    from bench.kernels import tensor_core_kernels as T

    b, h, s, d = 2, 4, 512, T.ATT_D
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
    out = torch.full((b, h, s, d), float("nan"), device="cuda", dtype=torch.bfloat16)
    flat = [x.view(b * h * s, d) for x in (out, q, k, v)]
    run(T.attention_64, _arg(flat[0], (T.ATT_BM, d)), *(_arg(x) for x in flat[1:]), s, 1.0 / math.sqrt(d), int(causal))
    torch.cuda.synchronize()
    want = _sdpa(torch, q.double(), k.double(), v.double(), causal)
    assert _rel(out, want) < 1e-2


def _exp2_kernel() -> Any:
    from typing import Annotated

    from safekernels import tile
    from safekernels.dtypes import f32
    from safekernels.tile import Partition, Tensor

    @tile.kernel
    def exp2_of(z: Annotated[Partition[f32], tile.Dims(256)], x: Tensor[f32]) -> None:
        z.store(tile.exp2(tile.load_like(x, z)))

    return exp2_of


def test_exp2_is_within_two_ulp_of_numpy(env: Any) -> None:
    """`tile.exp2` is libdevice's exp2f (one `ex2.approx.f32`): at most 2 ulp from the exact value."""
    torch, run = env
    x = np.concatenate([np.linspace(-125.0, 127.5, 4096), [-np.inf, np.inf, 0.0, -0.0]]).astype(np.float32)
    n = 4096 + 256
    xs = np.zeros(n, np.float32)
    xs[: x.size] = x
    z = torch.full((n,), float("nan"), device="cuda")
    run(_exp2_kernel(), _arg(z, (256,)), _arg(torch.from_numpy(xs).cuda()))
    torch.cuda.synchronize()
    got = z.cpu().numpy().astype(np.float64)
    want = np.exp2(xs.astype(np.float64))
    ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    finite = np.isfinite(want)
    assert (np.abs(got[finite] - want[finite]) <= 2 * ulp[finite]).all()
    assert (got[~finite] == want[~finite]).all()
