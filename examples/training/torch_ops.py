"""The training kernels as torch operators with autograd: `flash_attention`, `rms_norm` and `layer_norm`.

Each forward kernel is a functional `safekernels.torch.custom_op` that also returns what its backward needs
(the logsumexp, or the per-row mean and rstd); `op.register_autograd` attaches a backward that launches the
backward kernels, themselves custom ops, so the whole step runs eagerly, under `torch.compile` and in CUDA
graphs like any torch op:

    flash_attention(q, k, v, causal)   (batch, heads, seq, d) bf16 -> (batch, heads, seq, d) bf16
    rms_norm(x, w, eps)                (..., n) bf16, w (n,) bf16
    layer_norm(x, w, b, eps)           (..., n) bf16, w and b (n,) bf16

The statistics outputs are marked non-differentiable.  Ops are registered once per head dim or row length, in
the `sk_training` namespace.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import torch

import safekernels.torch as skt

from .attention import SEQ_MULTIPLE, flash_kernels, lse_shape
from .norms import norm_kernels, partial_rows


@dataclass(frozen=True)
class AttentionOps:
    forward: skt.SafeKernelOp  # (q, k, v, seq, scale, causal) -> (out, lse)
    bwd_dq: skt.SafeKernelOp  # (q, k, v, o, do, lse, seq, scale, causal) -> (dq, delta)
    bwd_dkdv: skt.SafeKernelOp  # (q, k, v, do, lse, delta, seq, scale, causal) -> (dk, dv)
    bwd_delta: skt.SafeKernelOp  # (o, do) -> delta
    bwd_fused: skt.SafeKernelOp  # (q, k, v, do, lse, delta, seq, scale, causal) -> (dk, dv, dq_acc f32)
    bwd_dq_convert: skt.SafeKernelOp  # (dq_acc) -> dq
    fused: bool  # the backward runs bwd_delta, bwd_fused, bwd_dq_convert (else bwd_dq, bwd_dkdv)


def _lse_rule(**tensors: Any) -> tuple[int, int]:
    return lse_shape(int(tensors["q"].shape[0]))


def _delta_rule(**tensors: Any) -> tuple[int, int]:
    return lse_shape(int(tensors["o"].shape[0]))


# Registered operators by head dim / row length.  Plain dicts, not `functools.cache`: `torch.compile` traces a
# dict lookup with a guard, where it would trace into a cached function and register the operators again.
_ATTENTION: dict[int, AttentionOps] = {}
_NORMS: dict[int, NormOps] = {}


def attention_ops(d: int) -> AttentionOps:
    """The attention operators for head dim `d`, registered on first use, with autograd."""
    if d in _ATTENTION:
        return _ATTENTION[d]
    ks = flash_kernels(d)
    ops = AttentionOps(
        skt.custom_op(f"sk_training::attention_fwd_d{d}", ks.forward, outputs={"out": "q", "lse": _lse_rule}),
        skt.custom_op(f"sk_training::attention_bwd_dq_d{d}", ks.bwd_dq, outputs={"dq": "q", "delta": _lse_rule}),
        skt.custom_op(f"sk_training::attention_bwd_dkdv_d{d}", ks.bwd_dkdv, outputs={"dk": "k", "dv": "v"}),
        skt.custom_op(f"sk_training::attention_bwd_delta_d{d}", ks.bwd_delta, outputs={"delta": _delta_rule}),
        skt.custom_op(
            f"sk_training::attention_bwd_fused_d{d}",
            ks.bwd_fused,
            outputs={"dk": "k", "dv": "v", "dq_acc": lambda **t: tuple(t["q"].shape)},
        ),
        skt.custom_op(f"sk_training::attention_bwd_dq_convert_d{d}", ks.bwd_dq_convert, outputs={"dq": "dq_acc"}),
        ks.fused,
    )

    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: tuple[torch.Tensor, torch.Tensor]) -> None:
        q, k, v, seq, scale, causal = inputs
        out, lse = output
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.scalars = (seq, scale, causal)
        ctx.mark_non_differentiable(lse)

    def backward(ctx: Any, grad_out: torch.Tensor, _grad_lse: torch.Tensor | None) -> tuple[Any, ...]:
        q, k, v, out, lse = ctx.saved_tensors
        do = grad_out.contiguous()
        if ops.fused:  # FlashAttention-2's way: dQ by atomics in the dK/dV kernel
            delta = ops.bwd_delta(out, do)
            dk, dv, dq_acc = ops.bwd_fused(q, k, v, do, lse, delta, *ctx.scalars)
            return ops.bwd_dq_convert(dq_acc), dk, dv, None, None, None
        dq, delta = ops.bwd_dq(q, k, v, out, do, lse, *ctx.scalars)
        dk, dv = ops.bwd_dkdv(q, k, v, do, lse, delta, *ctx.scalars)
        return dq, dk, dv, None, None, None

    ops.forward.register_autograd(backward, setup_context=setup_context)
    _ATTENTION[d] = ops
    return ops


def flash_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False) -> torch.Tensor:
    """softmax(Q K^T / sqrt(d)) V over (batch, heads, seq, d) bf16 tensors, differentiable in q, k and v
    (`torch.nn.functional.scaled_dot_product_attention` with the default scale)."""
    if q.dim() != 4 or q.shape != k.shape or q.shape != v.shape:
        raise ValueError(f"q, k and v must be (batch, heads, seq, d) of one shape, got {q.shape}, {k.shape}, {v.shape}")
    batch, heads, seq, d = (int(s) for s in q.shape)
    if seq % SEQ_MULTIPLE:
        raise ValueError(f"seq must be a multiple of {SEQ_MULTIPLE}, got {seq}")
    ops = _ATTENTION.get(d) or attention_ops(d)
    flat = (t.reshape(batch * heads * seq, d) for t in (q, k, v))
    out, _lse = ops.forward(*flat, seq, 1.0 / math.sqrt(d), int(causal))
    return out.view(batch, heads, seq, d)


@dataclass(frozen=True)
class NormOps:
    rms_forward: skt.SafeKernelOp  # (x, w, eps) -> (y, rstd)
    rms_bwd_dx: skt.SafeKernelOp  # (x, dy, w, rstd) -> dx
    rms_bwd_partial: skt.SafeKernelOp  # (x, dy, rstd) -> dw_part
    ln_forward: skt.SafeKernelOp  # (x, w, b, eps) -> (y, mean, rstd)
    ln_bwd_dx: skt.SafeKernelOp  # (x, dy, w, mean, rstd) -> dx
    ln_bwd_partial: skt.SafeKernelOp  # (x, dy, mean, rstd) -> (dw_part, db_part)
    finish: skt.SafeKernelOp  # (dw_part) -> dw
    finish_pair: skt.SafeKernelOp  # (dw_part, db_part) -> (dw, db)


def _stat_rule(**tensors: Any) -> tuple[int, int]:
    return (int(tensors["x"].shape[0]), 1)


def norm_ops(n: int) -> NormOps:
    """The RMSNorm / LayerNorm operators for rows of `n` elements, registered on first use, with autograd."""
    if n in _NORMS:
        return _NORMS[n]
    ks = norm_kernels(n)

    def part(**tensors: Any) -> tuple[int, int]:
        return (partial_rows(int(tensors["x"].shape[0])), n)

    ns = f"sk_training::{{}}_n{n}"
    ops = NormOps(
        skt.custom_op(ns.format("rms_norm_fwd"), ks.rms_fwd, outputs={"y": "x", "rstd": _stat_rule}),
        skt.custom_op(ns.format("rms_norm_bwd_dx"), ks.rms_bwd_dx, outputs={"dx": "x"}),
        skt.custom_op(ns.format("rms_norm_bwd_partial"), ks.rms_bwd_partial, outputs={"dw_part": part}),
        skt.custom_op(
            ns.format("layer_norm_fwd"), ks.ln_fwd, outputs={"y": "x", "mean": _stat_rule, "rstd": _stat_rule}
        ),
        skt.custom_op(ns.format("layer_norm_bwd_dx"), ks.ln_bwd_dx, outputs={"dx": "x"}),
        skt.custom_op(
            ns.format("layer_norm_bwd_partial"), ks.ln_bwd_partial, outputs={"dw_part": part, "db_part": part}
        ),
        skt.custom_op(ns.format("norm_bwd_finish"), ks.finish, outputs={"dw": (n,)}),
        skt.custom_op(ns.format("norm_bwd_finish_pair"), ks.finish_pair, outputs={"dw": (n,), "db": (n,)}),
    )

    def rms_setup(ctx: Any, inputs: tuple[Any, ...], output: tuple[torch.Tensor, torch.Tensor]) -> None:
        x, w, _eps = inputs
        ctx.save_for_backward(x, w, output[1])
        ctx.mark_non_differentiable(output[1])

    def rms_backward(ctx: Any, dy: torch.Tensor, _drstd: torch.Tensor | None) -> tuple[Any, ...]:
        x, w, rstd = ctx.saved_tensors
        dy = dy.contiguous()
        dx = ops.rms_bwd_dx(x, dy, w, rstd)
        dw = ops.finish(ops.rms_bwd_partial(x, dy, rstd))
        return dx, dw, None

    def ln_setup(ctx: Any, inputs: tuple[Any, ...], output: tuple[torch.Tensor, ...]) -> None:
        x, w, _b, _eps = inputs
        ctx.save_for_backward(x, w, output[1], output[2])
        ctx.mark_non_differentiable(output[1], output[2])

    def ln_backward(ctx: Any, dy: torch.Tensor, *_stats: torch.Tensor | None) -> tuple[Any, ...]:
        x, w, mean, rstd = ctx.saved_tensors
        dy = dy.contiguous()
        dx = ops.ln_bwd_dx(x, dy, w, mean, rstd)
        dw_part, db_part = ops.ln_bwd_partial(x, dy, mean, rstd)
        dw, db = ops.finish_pair(dw_part, db_part)
        return dx, dw, db, None

    ops.rms_forward.register_autograd(rms_backward, setup_context=rms_setup)
    ops.ln_forward.register_autograd(ln_backward, setup_context=ln_setup)
    _NORMS[n] = ops
    return ops


def _rows(x: torch.Tensor, w: torch.Tensor) -> tuple[torch.Tensor, int]:
    n = int(x.shape[-1])
    if w.shape != (n,):
        raise ValueError(f"the weight must have shape ({n},), got {tuple(w.shape)}")
    return x.reshape(-1, n), n


def rms_norm(x: torch.Tensor, w: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    """RMSNorm over the last axis (`torch.nn.functional.rms_norm(x, (n,), w, eps)`), differentiable in x and w."""
    rows, n = _rows(x, w)
    y, _rstd = (_NORMS.get(n) or norm_ops(n)).rms_forward(rows, w, eps)
    return y.view(x.shape)


def layer_norm(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """LayerNorm over the last axis (`torch.nn.functional.layer_norm(x, (n,), w, b, eps)`), differentiable in
    x, w and b."""
    rows, n = _rows(x, w)
    y, _mean, _rstd = (_NORMS.get(n) or norm_ops(n)).ln_forward(rows, w, b, eps)
    return y.view(x.shape)
