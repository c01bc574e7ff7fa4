"""C = A @ B in Triton, written the way Triton's matrix-multiplication tutorial (03) writes it: the peer row of the
GEMM benchmarks (bench/issue24_table.py).

Row-major (M, K) and (K, N) f16 or bf16 inputs, f32 accumulation, an output of the inputs' dtype; program ids
grouped by GROUP_SIZE_M rows of tiles for L2 reuse; `tl.dot` over K in BLOCK_SIZE_K steps with the K tail masked;
autotuned over the tutorial's CUDA configurations, keyed on (M, N, K).  Nothing here is tuned beyond the tutorial:
the row shows what a Triton user gets by copying it.
"""

from __future__ import annotations

from typing import Any

import torch
import triton  # type: ignore[import-not-found,unused-ignore]
import triton.language as tl  # type: ignore[import-not-found,unused-ignore]

#: the tutorial's `get_cuda_autotune_config()` (its f16/bf16 entries)
CONFIGS = [
    triton.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 8}, num_stages=st,
                  num_warps=w)
    for bm, bn, bk, st, w in (
        (128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
        (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 5, 2), (32, 64, 32, 5, 2),
    )
]  # fmt: skip


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"])  # type: ignore[misc,untyped-decorator,unused-ignore]
@triton.jit  # type: ignore[misc,untyped-decorator,unused-ignore]
def matmul_kernel(  # type: ignore[no-untyped-def]  # Triton reads the annotations: constexpr only
    a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
):  # fmt: skip
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def matmul(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    """`out = a @ b` (the tutorial's `matmul` wrapper, writing into a given output)."""
    launch(a, b, out)
    return out


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> Any:
    """`matmul`'s launch, returning what Triton returns for it: the compiled kernel of the autotuner's pick."""
    m, k = a.shape
    _, n = b.shape

    def grid(meta: dict[str, int]) -> tuple[int]:
        return (triton.cdiv(m, meta["BLOCK_SIZE_M"]) * triton.cdiv(n, meta["BLOCK_SIZE_N"]),)

    return matmul_kernel[grid](
        a, b, out, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), out.stride(0), out.stride(1)
    )
