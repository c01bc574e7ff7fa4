"""Flash attention forward in Triton, written the way Triton's fused-attention tutorial writes it: the peer row
of the attention benchmarks (bench/whole_program_bench.py).

(B, H, S, D) contiguous bf16 inputs; the softmax in log2 units (`qk_scale = sm_scale * log2(e)`, `exp2`); the
causal case in two passes as the tutorial does (the blocks left of the diagonal without a mask, then the
diagonal block with one), so `BLOCK_M % BLOCK_N == 0`; autotuned over the tutorial's block sizes, stages and
warps, per (head dim, causal).  S must be a multiple of BLOCK_M (the benchmark's shapes are).
"""

from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl

_CONFIGS = [
    triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_stages=st, num_warps=w)
    for bm, bn, st, w in ((128, 64, 3, 4), (128, 64, 4, 8), (128, 128, 3, 8), (128, 128, 2, 8), (64, 64, 4, 4))
]


@triton.jit
def _inner(  # type: ignore[no-untyped-def]  # Triton reads the annotations: constexpr only
    acc, l_i, m_i, q, k_ptr, v_ptr, start_m, qk_scale, lo, hi, offs_m, offs_n, offs_d,
    HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, MASK: tl.constexpr,
):  # fmt: skip
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(k_ptr + (start_n + offs_n)[None, :] * HEAD_DIM + offs_d[:, None])
        qk = tl.dot(q, k)
        if MASK:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + (start_n + offs_n)[:, None] * HEAD_DIM + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.autotune(configs=_CONFIGS, key=["N_CTX", "HEAD_DIM", "CAUSAL"])
@triton.jit
def _attn_fwd(  # type: ignore[no-untyped-def]
    Q, K, V, Out, sm_scale, N_CTX,
    HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):  # fmt: skip
    start_m = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.44269504
    k_ptr, v_ptr = K + base, V + base
    if CAUSAL:
        acc, l_i, m_i = _inner(
            acc, l_i, m_i, q, k_ptr, v_ptr, start_m, qk_scale, 0, start_m * BLOCK_M,
            offs_m, offs_n, offs_d, HEAD_DIM, BLOCK_N, False,
        )  # fmt: skip
        acc, l_i, m_i = _inner(
            acc, l_i, m_i, q, k_ptr, v_ptr, start_m, qk_scale, start_m * BLOCK_M, (start_m + 1) * BLOCK_M,
            offs_m, offs_n, offs_d, HEAD_DIM, BLOCK_N, True,
        )  # fmt: skip
    else:
        acc, l_i, m_i = _inner(
            acc, l_i, m_i, q, k_ptr, v_ptr, start_m, qk_scale, 0, N_CTX,
            offs_m, offs_n, offs_d, HEAD_DIM, BLOCK_N, False,
        )  # fmt: skip
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(Out.dtype.element_ty))


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, out: torch.Tensor) -> torch.Tensor:
    """softmax(q k^T / sqrt(d)) v of (B, H, S, D) contiguous tensors into `out`."""
    launch(q, k, v, causal, out)
    return out


def launch(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, out: torch.Tensor) -> Any:
    """`attention`'s launch, returning what Triton returns for it: the compiled kernel of the autotuner's pick
    (its `n_regs`, `n_spills` and `asm["cubin"]`: the SASS facts of bench/issue24_table.py)."""
    b, h, s, d = q.shape

    def grid(meta: dict[str, Any]) -> tuple[int, int]:
        return (triton.cdiv(s, meta["BLOCK_M"]), b * h)

    return _attn_fwd[grid](q, k, v, out, d**-0.5, s, HEAD_DIM=d, CAUSAL=causal)
