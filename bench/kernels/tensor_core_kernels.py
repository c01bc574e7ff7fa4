"""Tensor-core benchmark kernels written in the tile language: fp8 GEMM and flash attention forward
(bench/tensor_core_bench.py runs them against torch; the f16/bf16 GEMMs live in bench/kernels/tile_kernels.py).

`gemm_fp8` is C = (A @ B) * scale_a * scale_b with A (M, K) and B given as its (N, K) transpose, the layout
`torch._scaled_mm` takes and the one fp8 warpgroup MMA reads (K-major): `tile.transpose` of a tile load is
read in place, never copied.  `attention` is the online-softmax forward pass of examples/attention_tile.py at
the benchmark's head dim (128) and block sizes (`attention_64`: the same with 64-key blocks).
"""

from __future__ import annotations

from typing import Annotated, Any

from safekernels import tile
from safekernels.dtypes import bf16, f8e4m3, f32, i32
from safekernels.tile import Partition, Tensor

F8_BM, F8_BN, F8_BK = 128, 256, 128
# 128-key blocks: 0.67x/0.72x of cuDNN SDPA on the H200 where 64 gave 0.58x/0.61x (docs/benchmarks-tile.md).  At
# BN = 128 the sm_90 mma.sync fallback would need 297 KB of shared memory, so `attention` compiles for sm_90a only
# (the compiler says so, as for fp8); `attention_64` is the same program with 64-key blocks, for sm_90 and sm_80.
ATT_BM, ATT_BN, ATT_D = 128, 128, 128
LOG2E = 1.4426950408889634


@tile.kernel
def gemm_fp8(
    c: Annotated[Partition[bf16], tile.Dims(F8_BM, F8_BN)],
    a: Tensor[f8e4m3],
    bt: Tensor[f8e4m3],
    scale_a: f32,
    scale_b: f32,
) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((F8_BM, F8_BK))
    b_tiles = bt.partition((F8_BN, F8_BK))
    acc = tile.zeros((F8_BM, F8_BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), tile.transpose(b_tiles.load((j, k))), acc)
    c.store((acc * (scale_a * scale_b)).astype(bf16))


@tile.kernel(num_warps=8, fast_math=True)
def attention(
    out: Annotated[Partition[bf16], tile.Dims(ATT_BM, ATT_D)],
    q: Tensor[bf16],
    k: Tensor[bf16],
    v: Tensor[bf16],
    seq: i32,
    scale: f32,
    causal: i32,
) -> None:
    """Flash attention forward, softmax(Q K^T * scale) V, with little work per score (needs scale > 0): the
    mask is one compare against a per-row limit (the row itself when causal, past every column when not),
    the running max is taken on the raw scores and scaled once per row, the softmax is in log2 units and
    `fast_math` lets `s * scale2 - m` be one fused multiply-add and `exp2` one flush-to-zero `ex2`
    (docs/benchmarks-tile.md measures each step)."""
    i = tile.bid(0)
    q_blocks = seq // ATT_BM
    qb = i % q_blocks
    kv0 = (i // q_blocks) * (seq // ATT_BN)
    n_kv = causal * (((qb + 1) * ATT_BM + ATT_BN - 1) // ATT_BN) + (1 - causal) * (seq // ATT_BN)
    qt = q.load((i, 0), (ATT_BM, ATT_D))
    limit = tile.reshape(tile.iota(ATT_BM, i32), (ATT_BM, 1)) + (qb * ATT_BM + (1 - causal) * seq)
    cols = tile.reshape(tile.iota(ATT_BN, i32), (1, ATT_BN))
    m = tile.full((ATT_BM, 1), float("-inf"), f32)
    den = tile.zeros((ATT_BM, 1), f32)
    acc = tile.zeros((ATT_BM, ATT_D), f32)
    scale2 = scale * LOG2E
    for j in range(n_kv):
        kt = k.load((kv0 + j, 0), (ATT_BN, ATT_D))
        s = tile.matmul(qt, tile.transpose(kt), tile.zeros((ATT_BM, ATT_BN), f32))
        s = tile.where(cols <= limit - j * ATT_BN, s, float("-inf"))
        m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True) * scale2)
        p = tile.exp2(s * scale2 - m_new)
        alpha = tile.exp2(m - m_new)
        den = den * alpha + tile.sum(p, axis=1, keepdims=True)
        acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (ATT_BN, ATT_D)), acc * alpha)
        m = m_new
    out.store((acc * (1.0 / den)).astype(bf16))


@tile.kernel(num_warps=8, fast_math=True)
def attention_pipelined(
    out: Annotated[Partition[bf16], tile.Dims(ATT_BM, ATT_D)],
    q: Tensor[bf16],
    k: Tensor[bf16],
    v: Tensor[bf16],
    seq: i32,
    scale: f32,
    causal: i32,
) -> None:
    """`attention` software-pipelined by hand: block `j + 1`'s scores are computed in iteration `j`.

    Flash attention forward, softmax(Q K^T * scale) V, with little work per score (needs scale > 0): the
    mask is one compare against a per-row limit (the row itself when causal, past every column when not),
    the running max is taken on the raw scores and scaled once per row, the softmax is in log2 units and
    `fast_math` lets `s * scale2 - m` be one fused multiply-add and `exp2` one flush-to-zero `ex2`
    (docs/benchmarks-tile.md measures each step)."""
    i = tile.bid(0)
    q_blocks = seq // ATT_BM
    qb = i % q_blocks
    kv0 = (i // q_blocks) * (seq // ATT_BN)
    n_kv = causal * (((qb + 1) * ATT_BM + ATT_BN - 1) // ATT_BN) + (1 - causal) * (seq // ATT_BN)
    qt = q.load((i, 0), (ATT_BM, ATT_D))
    limit = tile.reshape(tile.iota(ATT_BM, i32), (ATT_BM, 1)) + (qb * ATT_BM + (1 - causal) * seq)
    cols = tile.reshape(tile.iota(ATT_BN, i32), (1, ATT_BN))
    m = tile.full((ATT_BM, 1), float("-inf"), f32)
    den = tile.zeros((ATT_BM, 1), f32)
    acc = tile.zeros((ATT_BM, ATT_D), f32)
    scale2 = scale * LOG2E
    s = tile.matmul(qt, tile.transpose(k.load((kv0, 0), (ATT_BN, ATT_D))), tile.zeros((ATT_BM, ATT_BN), f32))
    for j in range(n_kv):
        # the next block's scores first: their wgmma runs while this block's softmax does (the last
        # iteration recomputes its own block, in range, and never uses it)
        kn = k.load((kv0 + j + 1 - (j + 1) // n_kv, 0), (ATT_BN, ATT_D))
        s_next = tile.matmul(qt, tile.transpose(kn), tile.zeros((ATT_BM, ATT_BN), f32))
        s = tile.where(cols <= limit - j * ATT_BN, s, float("-inf"))
        m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True) * scale2)
        p = tile.exp2(s * scale2 - m_new)
        alpha = tile.exp2(m - m_new)
        den = den * alpha + tile.sum(p, axis=1, keepdims=True)
        acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (ATT_BN, ATT_D)), acc * alpha)
        m = m_new
        s = s_next
    out.store((acc * (1.0 / den)).astype(bf16))


@tile.kernel(num_warps=8)
def attention_64(
    out: Annotated[Partition[bf16], tile.Dims(ATT_BM, ATT_D)],
    q: Tensor[bf16],
    k: Tensor[bf16],
    v: Tensor[bf16],
    seq: i32,
    scale: f32,
    causal: i32,
) -> None:
    i = tile.bid(0)
    q_blocks = seq // ATT_BM
    qb = i % q_blocks
    kv0 = (i // q_blocks) * (seq // 64)
    n_kv = causal * (((qb + 1) * ATT_BM + 63) // 64) + (1 - causal) * (seq // 64)
    qt = q.load((i, 0), (ATT_BM, ATT_D))
    rows = tile.reshape(tile.iota(ATT_BM, i32), (ATT_BM, 1)) + qb * ATT_BM
    cols = tile.reshape(tile.iota(64, i32), (1, 64))
    m = tile.full((ATT_BM, 1), float("-inf"), f32)
    den = tile.zeros((ATT_BM, 1), f32)
    acc = tile.zeros((ATT_BM, ATT_D), f32)
    for j in range(n_kv):
        kt = k.load((kv0 + j, 0), (64, ATT_D))
        s = tile.matmul(qt, tile.transpose(kt), tile.zeros((ATT_BM, 64), f32)) * scale
        s = tile.where((cols + j * 64 <= rows) | (causal == 0), s, float("-inf"))
        m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True))
        p = tile.exp(s - m_new)
        alpha = tile.exp(m - m_new)
        den = den * alpha + tile.sum(p, axis=1, keepdims=True)
        acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (64, ATT_D)), acc * alpha)
        m = m_new
    out.store((acc * (1.0 / den)).astype(bf16))


ALL = [gemm_fp8, attention]

# Ahead-of-time builds: the shapes bench/tensor_core_bench.py runs.
GEMM = 8192
ATT_ROWS = 4 * 32 * 4096
tile.specialize(
    gemm_fp8,
    tile.spec((GEMM, GEMM), bf16, tile=(F8_BM, F8_BN)),
    tile.spec((GEMM, GEMM), f8e4m3),
    tile.spec((GEMM, GEMM), f8e4m3),
    f32,
    f32,
)
for _attention in (attention, attention_pipelined, attention_64):
    tile.specialize(
        _attention,
        tile.spec((ATT_ROWS, ATT_D), bf16, tile=(ATT_BM, ATT_D)),
        tile.spec((ATT_ROWS, ATT_D), bf16),
        tile.spec((ATT_ROWS, ATT_D), bf16),
        tile.spec((ATT_ROWS, ATT_D), bf16),
        i32,
        f32,
        i32,
    )
del _attention


def make_attention_pipelined(bm: int, bn: int, d: int) -> Any:
    """`attention_pipelined` at other block sizes and head dims (its sizes read from the closure): at d = 64 the
    second score tile fits in the registers that it overflows at d = 128."""

    @tile.kernel(num_warps=8, fast_math=True)
    def attention_pipelined_sized(
        out: Annotated[Partition[bf16], tile.Dims(bm, d)],
        q: Tensor[bf16],
        k: Tensor[bf16],
        v: Tensor[bf16],
        seq: i32,
        scale: f32,
        causal: i32,
    ) -> None:
        i = tile.bid(0)
        q_blocks = seq // bm
        qb = i % q_blocks
        kv0 = (i // q_blocks) * (seq // bn)
        n_kv = causal * (((qb + 1) * bm + bn - 1) // bn) + (1 - causal) * (seq // bn)
        qt = q.load((i, 0), (bm, d))
        limit = tile.reshape(tile.iota(bm, i32), (bm, 1)) + (qb * bm + (1 - causal) * seq)
        cols = tile.reshape(tile.iota(bn, i32), (1, bn))
        m = tile.full((bm, 1), float("-inf"), f32)
        den = tile.zeros((bm, 1), f32)
        acc = tile.zeros((bm, d), f32)
        scale2 = scale * LOG2E
        s = tile.matmul(qt, tile.transpose(k.load((kv0, 0), (bn, d))), tile.zeros((bm, bn), f32))
        for j in range(n_kv):
            kn = k.load((kv0 + j + 1 - (j + 1) // n_kv, 0), (bn, d))
            s_next = tile.matmul(qt, tile.transpose(kn), tile.zeros((bm, bn), f32))
            s = tile.where(cols <= limit - j * bn, s, float("-inf"))
            m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True) * scale2)
            p = tile.exp2(s * scale2 - m_new)
            alpha = tile.exp2(m - m_new)
            den = den * alpha + tile.sum(p, axis=1, keepdims=True)
            acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (bn, d)), acc * alpha)
            m = m_new
            s = s_next
        out.store((acc * (1.0 / den)).astype(bf16))

    return attention_pipelined_sized
