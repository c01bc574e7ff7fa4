"""Tile track: flash attention forward, softmax(Q K^T * scale) V, written in the tile language.

Q, K, V and O are (batch * heads * seq, head_dim) bf16 matrices, one head's `seq` rows after another.  Each
tile block owns BM query rows of one head and walks that head's keys BN at a time with the *online softmax*:
it keeps the running row max `m`, the running denominator `l` and an unnormalized output `acc` in f32; a new
block of scores `s = Q K^T * scale` raises the max to `m_new`, rescales `l` and `acc` by `exp(m - m_new)` and
adds `p = exp(s - m_new)` and `p @ V`.  Only one (BM, BN) block of scores ever exists.

`tile.matmul(q, tile.transpose(k), ...)` multiplies by K^T: on the GPU the compiler stages K in shared memory
once and reads it transposed, no copy of K^T is made.  The causal mask compares query and key positions built
with `tile.iota`; with `causal = 1` the loop also stops at the diagonal block.  `seq` must be a multiple of
BM and BN (the launch checks it).

Written plainly on purpose: the compiler applies the tuned kernel's rewrites itself.  The mask becomes one
compare per score against a per-row limit; with `@tile.kernel(fast_math=True)`, `tile.exp(s - m_new)` becomes
one FMA and one `ex2.approx.ftz` per score, which at d = 128 runs as fast as the hand-tuned bench kernel
(docs/tile-compiler.md "Rewrites", docs/benchmarks-tile.md).  This example keeps `exp`'s full accuracy.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import bf16, f32, i32
from safekernels.tile import Partition, Tensor

BM, BN, D = 64, 64, 64  # query rows per block, keys per step, head dim


@tile.kernel
def attention(
    out: Annotated[Partition[bf16], tile.Dims(BM, D)],
    q: Tensor[bf16],
    k: Tensor[bf16],
    v: Tensor[bf16],
    seq: i32,
    scale: f32,
    causal: i32,
) -> None:
    i = tile.bid(0)  # global query block: head i // (seq // BM), block i % (seq // BM) inside it
    q_blocks = seq // BM
    qb = i % q_blocks
    kv0 = (i // q_blocks) * (seq // BN)  # the head's first key block
    n_kv = causal * (((qb + 1) * BM + BN - 1) // BN) + (1 - causal) * (seq // BN)
    qt = q.load((i, 0), (BM, D))
    rows = tile.reshape(tile.iota(BM, i32), (BM, 1)) + qb * BM
    cols = tile.reshape(tile.iota(BN, i32), (1, BN))
    m = tile.full((BM, 1), float("-inf"), f32)
    den = tile.zeros((BM, 1), f32)
    acc = tile.zeros((BM, D), f32)
    for j in range(n_kv):
        kt = k.load((kv0 + j, 0), (BN, D))
        s = tile.matmul(qt, tile.transpose(kt), tile.zeros((BM, BN), f32)) * scale
        s = tile.where((cols + j * BN <= rows) | (causal == 0), s, float("-inf"))
        m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True))
        p = tile.exp(s - m_new)
        alpha = tile.exp(m - m_new)
        den = den * alpha + tile.sum(p, axis=1, keepdims=True)
        acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (BN, D)), acc * alpha)
        m = m_new
    out.store((acc * (1.0 / den)).astype(bf16))


# what `safekernels build examples/attention_tile.py` compiles ahead of time: the shape main() runs
tile.specialize(
    attention,
    tile.spec((2 * 256, D), bf16, tile=(BM, D)),
    tile.spec((2 * 256, D), bf16),
    tile.spec((2 * 256, D), bf16),
    tile.spec((2 * 256, D), bf16),
    i32,
    f32,
    i32,
)


def reference(
    q: npt.NDArray[Any], k: npt.NDArray[Any], v: npt.NDArray[Any], heads: int, causal: bool
) -> npt.NDArray[Any]:
    """softmax(Q K^T / sqrt(d)) V per head in f64, inputs (heads * seq, d)."""
    seq, d = q.shape[0] // heads, q.shape[1]
    out = np.empty(q.shape, np.float64)
    for h in range(heads):
        rows = slice(h * seq, (h + 1) * seq)
        s = q[rows].astype(np.float64) @ k[rows].astype(np.float64).T / math.sqrt(d)
        if causal:
            s = np.where(np.tril(np.ones((seq, seq), bool)), s, -np.inf)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        out[rows] = (e / e.sum(axis=1, keepdims=True)) @ v[rows].astype(np.float64)
    return out


def run(
    device: sk.Device, heads: int, seq: int, causal: bool, seed: int = 0
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Attention over `heads` random heads of `seq` tokens on `device`; returns (result, f64 reference)."""
    if seq % BM or seq % BN:
        raise ValueError(f"seq must be a multiple of {BM} and {BN}, got {seq}")
    rng = np.random.default_rng(seed)
    q, k, v = (sk.dtypes.bf16_to_f32(sk.dtypes.f32_to_bf16(rng.standard_normal((heads * seq, D)))) for _ in "qkv")
    stream = device.new_stream()
    out = tile.zeros((heads * seq, D), bf16).partition((BM, D))
    qt, kt, vt = (tile.from_numpy(x, dtype=bf16) for x in (q, k, v))
    out, *_ = attention(out, qt, kt, vt, seq, 1.0 / math.sqrt(D), int(causal)).sync_on(stream)
    return out.unpartition().to_numpy(stream), reference(q, k, v, heads, causal)


def main() -> None:
    heads, seq = 2, 256
    device = sk.Device.default()
    for causal in (False, True):
        got, want = run(device, heads, seq, causal)
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)
        print(f"attention_tile: {heads} heads x {seq} tokens, d={D}, bf16, causal={causal}, on {device!r}")
    print("PASSED")


if __name__ == "__main__":
    main()
