"""LayerNorm forward and backward in Triton, written the way Triton's layer-norm tutorial (05) writes them: the
peer of the LayerNorm backward row (bench/issue24_table.py).

Forward: one program per row, the mean and variance in f32 over BLOCK_SIZE-wide steps, the mean and 1/std saved.
Backward: one program per row computes dx and adds its row's dy * x_hat and dy into one of GROUP_SIZE_M partial
dw / db rows (in the input's dtype) under a spin lock, as the tutorial does; a second kernel sums the partial rows.
Nothing here is tuned beyond the tutorial: the row shows what a Triton user gets by copying it.
"""

from __future__ import annotations

from typing import Any

import torch
import triton  # type: ignore[import-not-found,unused-ignore]
import triton.language as tl  # type: ignore[import-not-found,unused-ignore]


@triton.jit  # type: ignore[misc,untyped-decorator,unused-ignore]
def _layer_norm_fwd_fused(  # type: ignore[no-untyped-def]  # Triton reads the annotations: constexpr only
    X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr,
):  # fmt: skip
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit  # type: ignore[misc,untyped-decorator,unused-ignore]
def _layer_norm_bwd_dx_fused(  # type: ignore[no-untyped-def]
    DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N, GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
):  # fmt: skip
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.0)
    wdy = tl.where(mask, wdy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit  # type: ignore[misc,untyped-decorator,unused-ignore]
def _layer_norm_bwd_dwdb(  # type: ignore[no-untyped-def]
    DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
):  # fmt: skip
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.0)
        db += tl.load(DB + offs, mask=mask, other=0.0)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


class LayerNorm(torch.autograd.Function):  # type: ignore[misc,unused-ignore]  # Any without torch's stubs
    """The tutorial's `LayerNorm` autograd function (feature dims up to 64 KB of one row)."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
        y = torch.empty_like(x)
        x_arg = x.reshape(-1, x.shape[-1])
        m, n = x_arg.shape
        mean = torch.empty((m,), dtype=torch.float32, device=x.device)
        rstd = torch.empty((m,), dtype=torch.float32, device=x.device)
        block = min(65536 // x.element_size(), triton.next_power_of_2(n))
        if n > block:
            raise RuntimeError("This layer norm doesn't support feature dim >= 64KB.")
        num_warps = min(max(block // 256, 1), 8)
        _layer_norm_fwd_fused[(m,)](
            x_arg, y, weight, bias, mean, rstd, x_arg.stride(0), n, eps, BLOCK_SIZE=block, num_warps=num_warps
        )
        ctx.save_for_backward(x, weight, bias, mean, rstd)
        ctx.block, ctx.num_warps = block, num_warps
        return y

    @staticmethod
    def backward(ctx: Any, dy: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, None]:
        x, w, _b, mean, rstd = ctx.saved_tensors
        n = w.shape[0]
        group = 64
        if n <= 8192:
            group = 96
        if n <= 4096:
            group = 128
        if n <= 1024:
            group = 256
        locks = torch.zeros(2 * group, dtype=torch.int32, device=w.device)
        partial_dw = torch.zeros((group, n), dtype=x.dtype, device=w.device)
        partial_db = torch.zeros((group, n), dtype=x.dtype, device=w.device)
        dw = torch.empty((n,), dtype=w.dtype, device=w.device)
        db = torch.empty((n,), dtype=w.dtype, device=w.device)
        dy = dy.contiguous()
        dx = torch.empty_like(dy)
        x_arg = x.reshape(-1, x.shape[-1])
        m, n = x_arg.shape
        _layer_norm_bwd_dx_fused[(m,)](
            dx, dy, partial_dw, partial_db, x, w, mean, rstd, locks, x_arg.stride(0), n,
            BLOCK_SIZE_N=ctx.block, GROUP_SIZE_M=group, num_warps=ctx.num_warps,
        )  # fmt: skip

        def grid(meta: dict[str, int]) -> tuple[int]:
            return (triton.cdiv(n, meta["BLOCK_SIZE_N"]),)

        _layer_norm_bwd_dwdb[grid](partial_dw, partial_db, dw, db, min(group, m), n, BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)
        return dx, dw, db, None


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    """y = LayerNorm(x) * weight + bias over the last dimension, with the tutorial's backward."""
    out: torch.Tensor = LayerNorm.apply(x, weight, bias, eps)
    return out
