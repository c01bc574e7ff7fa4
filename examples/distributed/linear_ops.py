"""A linear layer whose GEMMs are safekernels tile kernels, as a torch op with autograd.

The forward is `y = x @ w` (bf16 inputs, f32 accumulation, f32 output); the backward runs the same kernel on
transposed operands (`dx = dy @ wᵀ`, `dw = xᵀ @ dy`), so one tile program serves both passes. The distributed
examples beside this file (data-parallel training and a tensor-parallel MLP) build on it; it runs on CUDA tensors
through the GPU and on CPU tensors through the CPU executor, so the same script is tested without a GPU (gloo).
"""

from __future__ import annotations

from typing import Annotated, Any

import torch

import safekernels.torch as skt
from safekernels import tile
from safekernels.dtypes import bf16, f32
from safekernels.tile import Partition, Tensor

BM, BN, BK = 64, 64, 32


@tile.kernel
def gemm_bf16(
    c: Annotated[Partition[f32], tile.Dims(BM, BN)],
    a: Annotated[Tensor[bf16], tile.Dims(-1, "K")],
    b: Annotated[Tensor[bf16], tile.Dims("K", -1)],
) -> None:
    a_tiles = a.partition((BM, BK))
    b_tiles = b.partition((BK, BN))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((tile.bid(0), k)), b_tiles.load((k, tile.bid(1))), acc)
    c.store(acc)


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
