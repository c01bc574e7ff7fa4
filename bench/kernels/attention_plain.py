"""Flash attention forward written the plain way, at the bench's head dim: issue 24's "no cliffs" row.

The body is `examples/attention_tile.py`'s, word for word (`tile.exp`, the scale multiplied into the scores,
the causal mask built from two `tile.iota`s and an `or`), at the tuned bench kernel's block sizes and warps
(`bench/kernels/tensor_core_kernels.py::attention`: 128 x 128 blocks, d = 128, 8 warps).  `attention_plain_fast`
is the same program with `fast_math=True`, under which the compiler rewrites `exp(s - m)` into
`exp2(s * log2e - m * log2e)` with one FMA per score (`safekernels.codegen.tile.rewrites`), as the tuned kernel
does by hand.
"""

from __future__ import annotations

from typing import Annotated, Any

from safekernels import tile
from safekernels.dtypes import bf16, f32, i32
from safekernels.tile import Partition, Tensor

PBM, PBN, PD = 128, 128, 128


@tile.kernel(num_warps=8)
def attention_plain(
    out: Annotated[Partition[bf16], tile.Dims(PBM, PD)],
    q: Tensor[bf16],
    k: Tensor[bf16],
    v: Tensor[bf16],
    seq: i32,
    scale: f32,
    causal: i32,
) -> None:
    i = tile.bid(0)
    q_blocks = seq // PBM
    qb = i % q_blocks
    kv0 = (i // q_blocks) * (seq // PBN)
    n_kv = causal * (((qb + 1) * PBM + PBN - 1) // PBN) + (1 - causal) * (seq // PBN)
    qt = q.load((i, 0), (PBM, PD))
    rows = tile.reshape(tile.iota(PBM, i32), (PBM, 1)) + qb * PBM
    cols = tile.reshape(tile.iota(PBN, i32), (1, PBN))
    m = tile.full((PBM, 1), float("-inf"), f32)
    den = tile.zeros((PBM, 1), f32)
    acc = tile.zeros((PBM, PD), f32)
    for j in range(n_kv):
        kt = k.load((kv0 + j, 0), (PBN, PD))
        s = tile.matmul(qt, tile.transpose(kt), tile.zeros((PBM, PBN), f32)) * scale
        s = tile.where((cols + j * PBN <= rows) | (causal == 0), s, float("-inf"))
        m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True))
        p = tile.exp(s - m_new)
        alpha = tile.exp(m - m_new)
        den = den * alpha + tile.sum(p, axis=1, keepdims=True)
        acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (PBN, PD)), acc * alpha)
        m = m_new
    out.store((acc * (1.0 / den)).astype(bf16))


@tile.kernel(num_warps=8, fast_math=True)
def attention_plain_fast(
    out: Annotated[Partition[bf16], tile.Dims(PBM, PD)],
    q: Tensor[bf16],
    k: Tensor[bf16],
    v: Tensor[bf16],
    seq: i32,
    scale: f32,
    causal: i32,
) -> None:
    i = tile.bid(0)
    q_blocks = seq // PBM
    qb = i % q_blocks
    kv0 = (i // q_blocks) * (seq // PBN)
    n_kv = causal * (((qb + 1) * PBM + PBN - 1) // PBN) + (1 - causal) * (seq // PBN)
    qt = q.load((i, 0), (PBM, PD))
    rows = tile.reshape(tile.iota(PBM, i32), (PBM, 1)) + qb * PBM
    cols = tile.reshape(tile.iota(PBN, i32), (1, PBN))
    m = tile.full((PBM, 1), float("-inf"), f32)
    den = tile.zeros((PBM, 1), f32)
    acc = tile.zeros((PBM, PD), f32)
    for j in range(n_kv):
        kt = k.load((kv0 + j, 0), (PBN, PD))
        s = tile.matmul(qt, tile.transpose(kt), tile.zeros((PBM, PBN), f32)) * scale
        s = tile.where((cols + j * PBN <= rows) | (causal == 0), s, float("-inf"))
        m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True))
        p = tile.exp(s - m_new)
        alpha = tile.exp(m - m_new)
        den = den * alpha + tile.sum(p, axis=1, keepdims=True)
        acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (PBN, PD)), acc * alpha)
        m = m_new
    out.store((acc * (1.0 / den)).astype(bf16))


def make_attention_plain(bm: int, bn: int, d: int, fast_math: bool = True) -> Any:
    """The plain program above at other block sizes and head dims (d = 64 rows of issue 24's table): the same
    body, its sizes read from the closure (each (bm, bn, d) is its own kernel and cache entry)."""

    @tile.kernel(num_warps=8, fast_math=fast_math)
    def attention_plain_sized(
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
        rows = tile.reshape(tile.iota(bm, i32), (bm, 1)) + qb * bm
        cols = tile.reshape(tile.iota(bn, i32), (1, bn))
        m = tile.full((bm, 1), float("-inf"), f32)
        den = tile.zeros((bm, 1), f32)
        acc = tile.zeros((bm, d), f32)
        for j in range(n_kv):
            kt = k.load((kv0 + j, 0), (bn, d))
            s = tile.matmul(qt, tile.transpose(kt), tile.zeros((bm, bn), f32)) * scale
            s = tile.where((cols + j * bn <= rows) | (causal == 0), s, float("-inf"))
            m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True))
            p = tile.exp(s - m_new)
            alpha = tile.exp(m - m_new)
            den = den * alpha + tile.sum(p, axis=1, keepdims=True)
            acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (bn, d)), acc * alpha)
            m = m_new
        out.store((acc * (1.0 / den)).astype(bf16))

    return attention_plain_sized
