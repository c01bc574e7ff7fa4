"""On the GPU (H200): the plain attention program, rewritten by the compiler (`codegen.tile.rewrites`), agrees
with SDPA as closely as the tuned kernel, with and without `fast_math`, causal and not, and a fully masked
block row keeps the exact special values (`exp(-inf - -inf)` stays NaN; `exp(-inf - m)` stays 0).
Run: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Annotated, Any

import pytest

from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="module")
def env() -> Any:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    from bench.tile_harness import Runner

    return torch, Runner()


def _rel(x: Any, want: Any) -> float:
    return float((x.double() - want).norm() / want.norm())


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("name", ["attention_plain", "attention_plain_fast"])
@pytest.mark.parametrize(("b", "h", "s"), [(2, 4, 512), (1, 1, 128)])
def test_plain_attention_vs_sdpa(env: Any, name: str, causal: bool, b: int, h: int, s: int) -> None:
    torch, run = env
    from bench.kernels import attention_plain as P
    from bench.tile_harness import arg

    d = P.PD
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
    out = torch.full((b, h, s, d), float("nan"), device="cuda", dtype=torch.bfloat16)
    flat = [x.view(b * h * s, d) for x in (out, q, k, v)]
    run(getattr(P, name), arg(flat[0], (P.PBM, d)), *(arg(x) for x in flat[1:]), s, 1.0 / math.sqrt(d), int(causal))
    torch.cuda.synchronize()
    want = torch.nn.functional.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=causal)
    assert _rel(out, want) < 1e-2
    assert float((out.double() - want).abs().max()) < 3e-2


@tile.kernel(num_warps=1, fast_math=True)
def softexp(out: Annotated[Partition[f32], tile.Dims(16, 32)], x: Tensor[f32], m: Tensor[f32]) -> None:
    out.store(tile.exp(x.load((tile.bid(0), 0), (16, 32)) - m.load((tile.bid(0), 0), (16, 1))))


def test_fast_exp_keeps_special_values_and_its_error_bound(env: Any) -> None:
    torch, run = env
    from bench.tile_harness import arg

    x = torch.randn(16, 32, device="cuda") * 30
    x[0] = float("-inf")
    x[1, :4] = float("inf")
    m = x.max(dim=1, keepdim=True).values.clone()
    m[2] = float("nan")
    out = torch.empty(16, 32, device="cuda")
    run(softexp, arg(out, (16, 32)), arg(x), arg(m))
    torch.cuda.synchronize()
    want = torch.exp(x.double() - m.double())
    assert torch.equal(out.isnan(), want.isnan())  # row 0: -inf - -inf; row 1: inf - inf; row 2: NaN max
    finite = ~want.isnan()
    # docs/numerics.md (fast_math): relative error at most 2^-21 + 2^-24 * (|x| + |m| + 2 |x - m|)
    xd, md = x.double(), m.double()
    bound = 2.0**-21 + 2.0**-24 * (xd.abs() + md.abs() + 2 * (xd - md).abs())
    rel = (out.double() - want).abs() / want.abs().clamp_min(1e-30)
    normal = finite & (want > 1e-30)
    assert bool((rel[normal] <= bound[normal]).all()), float((rel - bound)[normal].max())
    assert torch.equal(out[finite & (want == 0)], torch.zeros_like(out[finite & (want == 0)]))
