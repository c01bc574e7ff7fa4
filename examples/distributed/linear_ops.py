"""A linear layer whose GEMMs are safekernels tile kernels, as a torch op with autograd.

The forward is `y = x @ w` (bf16 inputs, f32 accumulation, f32 output); the backward runs the same kernel on
transposed operands (`dx = dy @ wᵀ`, `dw = xᵀ @ dy`), so one tile program serves both passes. The distributed
examples beside this file (data-parallel training and a tensor-parallel MLP) build on it; it runs on CUDA tensors
through the GPU and on CPU tensors through the CPU executor, so the same script is tested without a GPU (gloo).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import torch

import safekernels.torch as skt

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gemm_kernel import gemm_bf16

gemm = skt.custom_op("skdist::gemm_bf16", gemm_bf16, outputs={"c": lambda a, b: (a.shape[0], b.shape[1])})


def _save_inputs(ctx: Any, inputs: tuple[torch.Tensor, ...], output: torch.Tensor) -> None:
    ctx.save_for_backward(*inputs)


def _gemm_backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    a, b = ctx.saved_tensors
    g = grad.to(torch.bfloat16).contiguous()
    grad_a = gemm(g, b.t().contiguous()).to(a.dtype)
    grad_b = gemm(a.t().contiguous(), g).to(b.dtype)
    return grad_a, grad_b


gemm.register_autograd(_gemm_backward, setup_context=_save_inputs)


class Linear(torch.nn.Module):
    """`x @ weight` through the safekernels GEMM (no bias): an f32 parameter (the optimizer's copy) cast to bf16 for
    the kernel, the f32 result cast back to bf16."""

    def __init__(self, in_features: int, out_features: int, *, generator: torch.Generator | None = None) -> None:
        super().__init__()
        scale = in_features**-0.5
        weight = torch.randn(in_features, out_features, generator=generator) * scale
        self.weight = torch.nn.Parameter(weight)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows = x.reshape(-1, x.shape[-1]).to(torch.bfloat16).contiguous()
        out: torch.Tensor = gemm(rows, self.weight.to(torch.bfloat16))
        return out.to(torch.bfloat16).reshape(*x.shape[:-1], self.weight.shape[1])
