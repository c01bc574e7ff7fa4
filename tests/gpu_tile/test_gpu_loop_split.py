"""On the GPU (H200): loops split at a mask's all-true range (`codegen.tile.loop_split`) compute what the written
loop does.  The plain attention program, causal and not, at block shapes where the diagonal falls inside the key
loop and where BM != BN, against SDPA in float64 and against the same program built without the split; a
masked accumulation loop whose split point lands mid-way, or nowhere because its i32 mask would wrap, against
numpy.  Run: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import pytest

from safekernels import tile
from safekernels.dtypes import f32, i32
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


def _attention(env: Any, kern: Any, bm: int, d: int, b: int, h: int, s: int, causal: bool, qkv: Any) -> Any:
    torch, run = env
    from bench.tile_harness import arg

    out = torch.full((b, h, s, d), float("nan"), device="cuda", dtype=torch.bfloat16)
    flat = [x.view(b * h * s, d) for x in (out, *qkv)]
    run(kern, arg(flat[0], (bm, d)), *(arg(x) for x in flat[1:]), s, 1.0 / math.sqrt(d), int(causal))
    torch.cuda.synchronize()
    return out


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize(("bm", "bn", "d", "s"), [(128, 128, 128, 640), (128, 64, 64, 384), (128, 128, 64, 1024)])
def test_split_attention_vs_sdpa_and_unsplit(
    env: Any, monkeypatch: pytest.MonkeyPatch, bm: int, bn: int, d: int, s: int, causal: bool
) -> None:
    torch, _ = env
    from bench.kernels import attention_plain as P
    from safekernels.codegen.tile import loop_split

    b, h = 2, 3
    qkv = [torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv"]
    outs = {}
    for on in (True, False):  # a fresh kernel object each: its own in-memory and on-disk cache entries
        monkeypatch.setattr(loop_split, "ENABLED", on)
        outs[on] = _attention(env, P.make_attention_plain(bm, bn, d), bm, d, b, h, s, causal, qkv)
    want = torch.nn.functional.scaled_dot_product_attention(*(x.double() for x in qkv), is_causal=causal)
    for out in outs.values():
        assert not bool(out.isnan().any())
        assert _rel(out, want) < 1e-2
        assert float((out.double() - want).abs().max()) < 3e-2
    # the split computes the same scores, max, exponentials and sums; at most a bf16 rounding apart
    assert float((outs[True].double() - outs[False].double()).abs().max()) <= 2e-2


def _window_kernel() -> Any:
    @tile.kernel(num_warps=4)
    def window(
        out: Annotated[Partition[f32], tile.Dims(16, 32)], x: Tensor[f32], n: i32, shift: i32, flag: i32
    ) -> None:
        rows = tile.reshape(tile.iota(16, i32), (16, 1)) + shift
        cols = tile.reshape(tile.iota(32, i32), (1, 32))
        acc = tile.zeros((16, 32), f32)
        xt = x.load((tile.bid(0), 0), (16, 32))
        for j in range(n):
            acc = acc + tile.where((cols + j * 32 <= rows) | (flag == 0), xt * (j + 1.0), 0.0)
        out.store(acc)

    return window


@pytest.mark.parametrize(("n", "shift", "flag"), [(6, 70, 1), (5, 0, 1), (4, 100, 0), (7, 2**31 - 5, 1), (3, -50, 1)])
def test_masked_loop_split_mid_way_vs_numpy(env: Any, n: int, shift: int, flag: int) -> None:
    torch, run = env
    from bench.tile_harness import arg

    x = torch.randn(64, 32, device="cuda")
    out = torch.full((64, 32), float("nan"), device="cuda")
    run(_window_kernel(), arg(out, (16, 32)), arg(x), n, shift, flag)
    torch.cuda.synchronize()
    xs = x.cpu().numpy().reshape(4, 16, 32)
    rows = (np.arange(16, dtype=np.int64)[:, None] + shift).astype(np.int32)  # i32, wrapping as the kernel's
    cols = np.arange(32, dtype=np.int64)[None, :]
    want = np.zeros((4, 16, 32), np.float32)
    for j in range(n):
        keep = ((cols + j * 32).astype(np.int32) <= rows) | (flag == 0)
        want += np.where(keep, xs * np.float32(j + 1.0), np.float32(0.0))
    np.testing.assert_allclose(out.cpu().numpy().reshape(4, 16, 32), want, rtol=1e-5, atol=1e-5)
