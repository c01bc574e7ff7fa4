"""The training kernels of examples/training/ on the CPU executor, against float64 numpy: flash attention's
forward (O and the saved logsumexp) and backward (dQ, dK, dV), causal and not, at both head dims, and RMSNorm /
LayerNorm forward and backward, including row counts and lengths that do not divide the tiles.  No torch, no GPU.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safekernels as sk

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from examples.training import attention, norms

CPU = sk.Device.cpu()


def _rel(got: Any, want: Any) -> float:
    return float(np.linalg.norm(got - want) / np.linalg.norm(want))


@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_attention_forward_and_backward_match_float64(d: int, causal: bool) -> None:
    heads, seq = 2, 256
    q, k, v, do = attention.random_inputs(heads, seq, d, seed=d + causal)
    o, lse2 = attention.forward(CPU, q, k, v, seq, causal)
    dq, dk, dv = attention.backward(CPU, q, k, v, o, do, lse2, seq, causal)
    want_o, want_lse, want_dq, want_dk, want_dv = attention.reference(q, k, v, do, seq, causal)
    assert _rel(o, want_o) < 1e-2  # bf16 output: one rounding, ~2e-3
    np.testing.assert_allclose(lse2 / attention.LOG2E, want_lse, rtol=1e-5, atol=1e-5)
    for name, got, want in (("dq", dq, want_dq), ("dk", dk, want_dk), ("dv", dv, want_dv)):
        assert got.shape == want.shape
        assert _rel(got, want) < 1e-2, name  # bf16 operands of the backward's matmuls: ~3e-3 measured


@pytest.mark.parametrize("d", [64, 128])
def test_attention_backward_fused_and_pair_agree(d: int, monkeypatch: Any) -> None:
    """FlashAttention-2's form (dQ added by atomics in the dK/dV kernel) and the dq / dkdv kernel pair give the
    same gradients on the CPU executor."""
    seq = 256
    q, k, v, do = attention.random_inputs(1, seq, d, seed=9)
    o, lse2 = attention.forward(CPU, q, k, v, seq, True)
    monkeypatch.setattr(attention, "FUSED", True)
    monkeypatch.setitem(attention.BLOCKS, d, (128, 128, d, 64))  # the fused kernel's key block is d rows
    assert attention.flash_kernels(d).fused
    fused = attention.backward(CPU, q, k, v, o, do, lse2, seq, True)
    monkeypatch.setattr(attention, "FUSED", False)
    assert not attention.flash_kernels(d).fused
    pair = attention.backward(CPU, q, k, v, o, do, lse2, seq, True)
    for name, a, b in zip(("dq", "dk", "dv"), fused, pair, strict=True):
        assert _rel(a, b) < 5e-3, name  # dQ: f32 sums in another order, rounded to bf16 once


@pytest.mark.parametrize("blocks", [(64, 64, 64, 64), (128, 64, 128, 128), (64, 128, 64, 128)])
def test_attention_backward_block_variants_agree(blocks: tuple[int, int, int, int], monkeypatch: Any) -> None:
    """The block sizes bench/backward_bench.py times (one warpgroup per tile block, 128-query steps) compute
    the same gradients: every mix of 64- and 128-row blocks reads the LSE / D matrices at the right rows."""
    seq, d = 256, 64
    q, k, v, do = attention.random_inputs(1, seq, d, seed=7)
    want = attention.reference(q, k, v, do, seq, True)
    o, lse2 = attention.forward(CPU, q, k, v, seq, True)
    monkeypatch.setitem(attention.BLOCKS, d, blocks)
    grads = attention.backward(CPU, q, k, v, o, do, lse2, seq, True)
    for name, got, ref in zip(("dq", "dk", "dv"), grads, want[2:], strict=True):
        assert _rel(got, ref) < 1e-2, name


def test_attention_causal_gradients_ignore_the_future() -> None:
    """Changing the last key and value of a causal head leaves every earlier query's output and dQ alone."""
    seq, d = 256, 64
    q, k, v, do = attention.random_inputs(1, seq, d, seed=5)
    k2, v2 = k.copy(), v.copy()
    k2[-1] += 1.0
    v2[-1] -= 1.0
    outs, dqs = [], []
    for kk, vv in ((k, v), (k2, v2)):
        o, lse2 = attention.forward(CPU, q, kk, vv, seq, True)
        outs.append(o)
        dqs.append(attention.backward(CPU, q, kk, vv, o, do, lse2, seq, True)[0])
    np.testing.assert_array_equal(outs[0][:-1], outs[1][:-1])  # rows that never see the last key
    np.testing.assert_array_equal(dqs[0][:-1], dqs[1][:-1])
    assert not np.array_equal(dqs[0][-1], dqs[1][-1])


def test_attention_refuses_a_ragged_sequence() -> None:
    q, k, v, _ = attention.random_inputs(1, 128, 64)
    with pytest.raises(ValueError, match="multiple of 128"):
        attention.forward(CPU, q[:100], k[:100], v[:100], 100, False)


@pytest.mark.parametrize(("rows", "n"), [(100, 256), (37, 96), (1100, 64)])
def test_rms_norm_forward_and_backward_match_float64(rows: int, n: int) -> None:
    x, w, _b, dy = norms.random_inputs(rows, n, seed=rows)
    eps = 1e-5
    y, rstd = norms.rmsnorm_forward(CPU, x, w, eps)
    dx, dw = norms.rmsnorm_backward(CPU, x, w, rstd, dy)
    want_y, want_dx, want_dw = norms.rmsnorm_reference(x, w, dy, eps)
    for name, got, want in (("y", y, want_y), ("dx", dx, want_dx), ("dw", dw, want_dw)):
        assert got.shape == want.shape, name
        assert _rel(got, want) < 8e-3, name  # one bf16 rounding of an f32 result


@pytest.mark.parametrize(("rows", "n"), [(100, 256), (37, 96), (1100, 64)])
def test_layer_norm_forward_and_backward_match_float64(rows: int, n: int) -> None:
    x, w, b, dy = norms.random_inputs(rows, n, seed=rows + 1)
    eps = 1e-5
    y, mean, rstd = norms.layernorm_forward(CPU, x, w, b, eps)
    dx, dw, db = norms.layernorm_backward(CPU, x, w, mean, rstd, dy)
    want = norms.layernorm_reference(x, w, b, dy, eps)
    for name, got, ref in zip(("y", "dx", "dw", "db"), (y, dx, dw, db), want, strict=True):
        assert got.shape == ref.shape, name
        assert _rel(got, ref) < 8e-3, name
    np.testing.assert_allclose(mean[:, 0], x.astype(np.float64).mean(axis=1), rtol=1e-5, atol=1e-6)
