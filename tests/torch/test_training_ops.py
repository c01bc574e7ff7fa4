"""The training operators of examples/training/ on the GPU: flash attention, RMSNorm and LayerNorm, forward
and backward through torch's autograd, against torch (SDPA's backward, torch's RMSNorm / LayerNorm autograd).

Accuracy is judged as FlashAttention's own tests do: each result is compared with a float32 computation on the
same bf16 inputs, and the operator's error must stay within a small multiple of the error of torch's own bf16
operator (plus a floor), so the bound follows bf16 rounding rather than a hand-picked tolerance.  Shapes are
smaller cousins of bench/backward_bench.py's.  Needs torch and a GPU (skipped without either).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from examples.training import torch_ops  # noqa: E402

pytestmark = pytest.mark.gpu


def _cuda() -> None:
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")


def _err(got: Any, ref: Any) -> float:
    return float((got.float() - ref.float()).norm() / ref.float().norm())


def _grads(fn: Any, inputs: list[Any], dout: Any) -> tuple[Any, list[Any]]:
    leaves = [x.detach().clone().requires_grad_() for x in inputs]
    out = fn(*leaves)
    out.backward(dout)
    return out.detach(), [x.grad for x in leaves]


def _check(name: str, got: Any, mine_ref: Any, torch_bf16: Any, factor: float = 2.0, floor: float = 2e-3) -> None:
    ours, theirs = _err(got, mine_ref), _err(torch_bf16, mine_ref)
    assert not torch.isnan(got).any(), f"{name}: NaN"
    assert ours <= factor * theirs + floor, f"{name}: relative error {ours:.2e}, torch bf16 {theirs:.2e}"


@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_flash_attention_forward_and_backward_match_sdpa(d: int, causal: bool) -> None:
    _cuda()
    from torch.nn.functional import scaled_dot_product_attention as sdpa

    torch.manual_seed(d + causal)
    b, h, s = 2, 4, 512
    q, k, v, dout = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(4))

    def reference(q: Any, k: Any, v: Any) -> Any:
        return sdpa(q, k, v, is_causal=causal)

    out, grads = _grads(lambda q, k, v: torch_ops.flash_attention(q, k, v, causal), [q, k, v], dout)
    ref_out, ref_grads = _grads(reference, [q.float(), k.float(), v.float()], dout.float())
    bf_out, bf_grads = _grads(reference, [q, k, v], dout)
    _check("out", out, ref_out, bf_out)
    for name, g, r, t in zip(("dq", "dk", "dv"), grads, ref_grads, bf_grads, strict=True):
        assert g is not None and g.dtype == torch.bfloat16 and g.shape == q.shape
        _check(name, g, r, t)


def test_flash_attention_inside_torch_compile() -> None:
    _cuda()
    torch.manual_seed(0)
    q, k, v = (torch.randn(1, 2, 256, 64, device="cuda", dtype=torch.bfloat16, requires_grad=True) for _ in range(3))

    def loss(q: Any, k: Any, v: Any) -> Any:
        return torch_ops.flash_attention(q, k, v, True).float().square().sum()

    eager = [x.detach().clone().requires_grad_() for x in (q, k, v)]
    loss(eager[0], eager[1], eager[2]).backward()  # first: registers the operators outside the trace
    torch.compile(loss, fullgraph=True)(q, k, v).backward()
    for compiled, plain in zip((q, k, v), eager, strict=True):
        torch.testing.assert_close(compiled.grad, plain.grad)


def test_flash_attention_refuses_a_ragged_sequence() -> None:
    _cuda()
    q = torch.randn(1, 1, 200, 64, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(ValueError, match="multiple of 128"):
        torch_ops.flash_attention(q, q, q)


@pytest.mark.parametrize("n", [1024, 4096])
def test_rms_norm_forward_and_backward_match_torch(n: int) -> None:
    _cuda()
    torch.manual_seed(n)
    x, dy = (torch.randn(3, 700, n, device="cuda", dtype=torch.bfloat16) for _ in range(2))
    w = (1.0 + 0.5 * torch.randn(n, device="cuda")).to(torch.bfloat16)
    eps = 1e-6

    def reference(x: Any, w: Any) -> Any:
        return torch.nn.functional.rms_norm(x, (n,), w, eps)

    y, grads = _grads(lambda x, w: torch_ops.rms_norm(x, w, eps), [x, w], dy)
    ref_y, ref_grads = _grads(reference, [x.float(), w.float()], dy.float())
    bf_y, bf_grads = _grads(reference, [x, w], dy)
    _check("y", y, ref_y, bf_y)
    for name, g, r, t in zip(("dx", "dw"), grads, ref_grads, bf_grads, strict=True):
        _check(name, g, r, t)


@pytest.mark.parametrize("n", [1024, 4096])
def test_layer_norm_forward_and_backward_match_torch(n: int) -> None:
    _cuda()
    torch.manual_seed(n + 1)
    x, dy = (torch.randn(3, 700, n, device="cuda", dtype=torch.bfloat16) for _ in range(2))
    w = (1.0 + 0.5 * torch.randn(n, device="cuda")).to(torch.bfloat16)
    b = (0.5 * torch.randn(n, device="cuda")).to(torch.bfloat16)
    eps = 1e-5

    def reference(x: Any, w: Any, b: Any) -> Any:
        return torch.nn.functional.layer_norm(x, (n,), w, b, eps)

    y, grads = _grads(lambda x, w, b: torch_ops.layer_norm(x, w, b, eps), [x, w, b], dy)
    ref_y, ref_grads = _grads(reference, [x.float(), w.float(), b.float()], dy.float())
    bf_y, bf_grads = _grads(reference, [x, w, b], dy)
    _check("y", y, ref_y, bf_y)
    for name, g, r, t in zip(("dx", "dw", "db"), grads, ref_grads, bf_grads, strict=True):
        _check(name, g, r, t)
