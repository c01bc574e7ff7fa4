"""The tile kernels of one Llama-style decoder layer (bf16), and the numpy reference they are checked against.

Every kernel is written in the tile language and imports no torch, so the CPU executor runs the same programs
at tiny sizes (tests/llama/) and `layer.py` registers them as torch operators.  Layouts, chosen so that no
kernel ever transposes or copies a tensor for the next one:

- activations are row-major `(tokens, features)`; a head is 128 consecutive columns;
- the projection weights are stored K-major, `(in_features, out_features)` (`W.T` of `nn.Linear`), the layout
  the tile GEMM's TMA + warpgroup-MMA main loop reads; the gate and up projections are one `(hidden, 2 * I)`
  weight whose columns alternate GU gate and GU up columns (`interleave_gate_up`);
- the QKV projection writes `(tokens, (H + 2 * KVH) * 128)`; `rope` writes the rotated Q and K heads as
  `(tokens, (H + KVH) * 128)`; attention reads Q and K from there and V straight from the QKV output, and writes
  its output as `(tokens, H * 128)`, the O projection's input;
- the KV cache is position-major, `(max_positions, batch, KVH * 128)`, so the new token's slot `cache[pos]` is
  one contiguous `(batch, KVH * 128)` block that `kv_append` writes and a key block of one (batch, KV head)
  is a `(BN, 128)` tile of the `(max_positions, batch * KVH * 128)` view that `decode_attention` reads.

Fused where it saves a pass over memory: the first residual add with the second RMSNorm (both steps), in the
decode step SiLU(gate) * up in the epilogue of the gate/up GEMM (two accumulators sharing each A tile) and the
split-K partial sums with the residual add.  The prefill runs its gate/up GEMM as one plain 128 x 256 GEMM and
`silu_mul` after it: the two-accumulator kernel measured 474 TFLOP/s there against 755 for the plain one (it
is neither persistent nor stored by TMA), and a 128 x 256 tile has no shared memory left for a residual tile
(263 KB beside the pipeline's 193 KB, over the 227 KB limit), so the prefill's residual adds are passes too.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

from safekernels import tile
from safekernels.dtypes import bf16, f32, i32
from safekernels.tile import Partition, Tensor

D = 128  # head dim
HALF = D // 2
GROUP = 4  # query heads per KV head (32 / 8 in Llama-3-8B)
HID = 4096  # RMSNorm row tile: the model width, or more (a narrower row reads and writes zeros past its end)
LOG2E = 1.4426950408889634

# prefill GEMMs: the persistent TMA + warpgroup-MMA shape (docs/tile-compiler.md)
BM, BN, BK = 128, 256, 64
GU = 64  # the gate/up weight alternates GU gate columns and GU up columns
SM_R = 64  # silu_mul rows per tile block
# decode GEMMs: M is the batch (32), one warpgroup's 64 rows; narrow N tiles give the weight stream more CTAs,
# and 128-deep K steps halve the per-step cost that bounds each CTA's share of the stream
DBM, DBN, DBK = 64, 64, 128
ROPE_R = 64  # rope rows per tile block (prefill)
DEC_R = 32  # rope / append rows per tile block (decode: the batch)
ATT_BM, ATT_BN = 128, 128  # prefill attention blocks
DEC_BN = 64  # decode attention: keys per step
REP = 64 // GROUP  # decode attention: each query head repeated REP times fills one warpgroup's 64 rows


@tile.kernel
def rmsnorm(out: Annotated[Partition[bf16], tile.Dims(1, HID)], x: Tensor[bf16], w: Tensor[bf16], eps: f32) -> None:
    """out = x / sqrt(mean(x^2) + eps) * w, per row, in f32, rounded once."""
    t = tile.load_like(x, out).astype(f32)
    ms = tile.sum(t * t, axis=1, keepdims=True) / x.shape[1]
    y = t * tile.rsqrt(ms + eps)
    out.store((y * w.load((0,), (HID,)).astype(f32)).astype(bf16))


@tile.kernel
def gemm(c: Annotated[Partition[bf16], tile.Dims(BM, BN)], a: Tensor[bf16], b: Tensor[bf16]) -> None:
    """c = a @ b, a (M, K), b (K, N)."""
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((BM, BK))
    b_tiles = b.partition((BK, BN))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(acc.astype(bf16))


@tile.kernel
def add_rmsnorm(
    h: Annotated[Partition[bf16], tile.Dims(1, HID)],
    n: Annotated[Partition[bf16], tile.Dims(1, HID)],
    a: Tensor[bf16],
    r: Tensor[bf16],
    w: Tensor[bf16],
    eps: f32,
) -> None:
    """The residual add and the next RMSNorm in one pass: h = a + r (bf16, as torch adds), n = rmsnorm(h)."""
    s = tile.load_like(a, h) + tile.load_like(r, h)
    h.store(s)
    t = s.astype(f32)
    ms = tile.sum(t * t, axis=1, keepdims=True) / a.shape[1]
    y = t * tile.rsqrt(ms + eps)
    n.store((y * w.load((0,), (HID,)).astype(f32)).astype(bf16))


@tile.kernel
def residual_add(c: Annotated[Partition[bf16], tile.Dims(1, HID)], a: Tensor[bf16], r: Tensor[bf16]) -> None:
    """c = a + r: the layer's last residual add (a 128 x 256 GEMM tile has no shared memory left for it)."""
    c.store(tile.load_like(a, c) + tile.load_like(r, c))


@tile.kernel
def silu_mul(c: Annotated[Partition[bf16], tile.Dims(SM_R, GU)], gu: Tensor[bf16]) -> None:
    """c = silu(gate) * up from the gate/up GEMM's output, whose columns alternate GU gate and GU up columns."""
    i = tile.bid(0)
    j = tile.bid(1)
    g = gu.load((i, 2 * j), (SM_R, GU)).astype(f32)
    u = gu.load((i, 2 * j + 1), (SM_R, GU)).astype(f32)
    c.store((g / (1.0 + tile.exp(-g)) * u).astype(bf16))


@tile.kernel
def dgemm(c: Annotated[Partition[bf16], tile.Dims(DBM, DBN)], a: Tensor[bf16], b: Tensor[bf16]) -> None:
    """`gemm` with the decode step's tile: a few rows of A against a weight streamed by many CTAs."""
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((DBM, DBK))
    b_tiles = b.partition((DBK, DBN))
    acc = tile.zeros((DBM, DBN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(acc.astype(bf16))


@tile.kernel
def dgemm_residual(
    c: Annotated[Partition[bf16], tile.Dims(DBM, DBN)], a: Tensor[bf16], b: Tensor[bf16], r: Tensor[bf16]
) -> None:
    """c = a @ b + r (the residual add in the epilogue), with the decode step's tile."""
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((DBM, DBK))
    b_tiles = b.partition((DBK, DBN))
    acc = tile.zeros((DBM, DBN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store((acc + r.load((i, j), (DBM, DBN)).astype(f32)).astype(bf16))


@tile.kernel
def dgemm_swiglu(c: Annotated[Partition[bf16], tile.Dims(DBM, GU)], a: Tensor[bf16], wgu: Tensor[bf16]) -> None:
    """The decode step's gate/up GEMM with SiLU(gate) * up in its epilogue: output tile j reads the gate and up
    column blocks 2j and 2j + 1 of the interleaved weight into two accumulators that share each A tile."""
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((DBM, BK))
    w_tiles = wgu.partition((BK, GU))
    g = tile.zeros((DBM, GU), f32)
    u = tile.zeros((DBM, GU), f32)
    for k in range(a_tiles.num_tiles(1)):
        at = a_tiles.load((i, k))
        g = tile.matmul(at, w_tiles.load((k, 2 * j)), g)
        u = tile.matmul(at, w_tiles.load((k, 2 * j + 1)), u)
    c.store((g / (1.0 + tile.exp(-g)) * u).astype(bf16))


@tile.kernel
def dgemm_splitk(c: Annotated[Partition[f32], tile.Dims(1, DBM, DBN)], a: Tensor[bf16], b: Tensor[bf16]) -> None:
    """Split-K decode GEMM: c[s] = a[:, Ks] @ b[Ks, :] for the s-th of `c.shape[0]` equal K ranges (f32
    partial sums; `splitk_add_rmsnorm` / `splitk_residual` add them up).  With 32 rows the step is a weight
    stream, and a 4096-wide output has only 64 tiles of 64 columns: the splits give it more CTAs."""
    s = tile.bid(0)
    i = tile.bid(1)
    j = tile.bid(2)
    a_tiles = a.partition((DBM, DBK))
    b_tiles = b.partition((DBK, DBN))
    splits = tile.num_blocks(0)
    per = a_tiles.num_tiles(1) // splits
    extra = (a_tiles.num_tiles(1) - per * splits) * ((s + 1) // splits)  # the last split takes the remainder
    acc = tile.zeros((DBM, DBN), f32)
    for k in range(s * per, s * per + per + extra):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(tile.reshape(acc, (1, DBM, DBN)))


@tile.function
def _sum_splits(parts: Any, i: Any) -> Any:
    """Row i of the sum over axis 0 of the (splits, rows, HID) partials, as a (1, HID) f32 tile."""
    acc = parts.load((0, i, 0), (1, 1, HID))
    for s in range(1, parts.shape[0]):
        acc = acc + parts.load((s, i, 0), (1, 1, HID))
    return tile.reshape(acc, (1, HID))


@tile.kernel
def splitk_add_rmsnorm(
    h: Annotated[Partition[bf16], tile.Dims(1, HID)],
    n: Annotated[Partition[bf16], tile.Dims(1, HID)],
    parts: Tensor[f32],
    r: Tensor[bf16],
    w: Tensor[bf16],
    eps: f32,
) -> None:
    """h = sum of the split-K partials + r, n = rmsnorm(h): the O projection's end and the second RMSNorm."""
    s = (_sum_splits(parts, tile.bid(0)) + tile.load_like(r, h).astype(f32)).astype(bf16)
    h.store(s)
    t = s.astype(f32)
    ms = tile.sum(t * t, axis=1, keepdims=True) / r.shape[1]
    n.store((t * tile.rsqrt(ms + eps) * w.load((0,), (HID,)).astype(f32)).astype(bf16))


@tile.kernel
def splitk_residual(c: Annotated[Partition[bf16], tile.Dims(1, HID)], parts: Tensor[f32], r: Tensor[bf16]) -> None:
    """c = sum of the split-K partials + r: the down projection's end."""
    c.store((_sum_splits(parts, tile.bid(0)) + tile.load_like(r, c).astype(f32)).astype(bf16))


@tile.kernel
def rope(
    out: Annotated[Partition[bf16], tile.Dims(ROPE_R, HALF)],
    qkv: Tensor[bf16],
    cos: Tensor[f32],
    sin: Tensor[f32],
    seq: i32,
) -> None:
    """Rotary embedding of the Q and K heads of `qkv` (rotate-half form), token `t` at position `t % seq`.

    One tile block makes one half (64 columns) of one head for ROPE_R tokens: `x_h * cos + x_other * sin`,
    where the tables hold `cos` twice and `-sin, +sin` per (position, 128 columns), so both halves are one
    formula.  `out` is `(tokens, (H + KVH) * 128)`; V is not copied (attention reads it from `qkv`)."""
    i = tile.bid(0)
    c = tile.bid(1)
    half = c % 2
    own = qkv.load((i, c), (ROPE_R, HALF)).astype(f32)
    other = qkv.load((i, c + 1 - 2 * half), (ROPE_R, HALF)).astype(f32)
    pos = i % (seq // ROPE_R)
    co = cos.load((pos, half), (ROPE_R, HALF))
    si = sin.load((pos, half), (ROPE_R, HALF))
    out.store((own * co + other * si).astype(bf16))


@tile.kernel
def rope_decode(
    out: Annotated[Partition[bf16], tile.Dims(DEC_R, HALF)],
    qkv: Tensor[bf16],
    cos: Tensor[f32],
    sin: Tensor[f32],
    pos: i32,
) -> None:
    """`rope` for one new token per sequence, every row at position `pos`."""
    i = tile.bid(0)
    c = tile.bid(1)
    half = c % 2
    own = qkv.load((i, c), (DEC_R, HALF)).astype(f32)
    other = qkv.load((i, c + 1 - 2 * half), (DEC_R, HALF)).astype(f32)
    co = tile.broadcast_to(cos.load((pos, half), (1, HALF)), (DEC_R, HALF))
    si = tile.broadcast_to(sin.load((pos, half), (1, HALF)), (DEC_R, HALF))
    out.store((own * co + other * si).astype(bf16))


@tile.kernel
def kv_append(
    k_slot: Annotated[Partition[bf16], tile.Dims(DEC_R, D)],
    v_slot: Annotated[Partition[bf16], tile.Dims(DEC_R, D)],
    qk: Tensor[bf16],
    qkv: Tensor[bf16],
) -> None:
    """Write the new token's rotated K (from `rope_decode`'s output) and its V (from the QKV output) into the
    cache slots `k_cache[pos]`, `v_cache[pos]` (each `(batch, KVH * 128)`), one KV head per tile block."""
    i = tile.bid(0)
    j = tile.bid(1)
    kv_heads = k_slot.shape[1] // D
    heads = qk.shape[1] // D - kv_heads
    k_slot.store(qk.load((i, heads + j), (DEC_R, D)))
    v_slot.store(qkv.load((i, heads + kv_heads + j), (DEC_R, D)))


@tile.kernel(num_warps=8, fast_math=True)
def attention(
    out: Annotated[Partition[bf16], tile.Dims(ATT_BM, D)],
    qk: Tensor[bf16],
    qkv: Tensor[bf16],
    seq: i32,
    scale: f32,
) -> None:
    """Causal flash attention with grouped KV heads, the bench kernel's online softmax in log2 units
    (bench/kernels/tensor_core_kernels.py) on this layer's layouts: tile block (i, h) makes query block i
    (batch i // (seq / 128)) of head h, reading Q_h and K_{h // GROUP} from the rotated `qk` and
    V_{h // GROUP} from `qkv`."""
    i = tile.bid(0)
    h = tile.bid(1)
    q_blocks = seq // ATT_BM
    qb = i % q_blocks
    row0 = i - qb  # this sequence's first block row
    heads = out.shape[1] // D
    kv = h // GROUP
    kv_heads = qk.shape[1] // D - heads
    n_kv = ((qb + 1) * ATT_BM + ATT_BN - 1) // ATT_BN
    qt = qk.load((i, h), (ATT_BM, D))
    limit = tile.reshape(tile.iota(ATT_BM, i32), (ATT_BM, 1)) + qb * ATT_BM
    cols = tile.reshape(tile.iota(ATT_BN, i32), (1, ATT_BN))
    m = tile.full((ATT_BM, 1), float("-inf"), f32)
    den = tile.zeros((ATT_BM, 1), f32)
    acc = tile.zeros((ATT_BM, D), f32)
    scale2 = scale * LOG2E
    for j in range(n_kv):
        kt = qk.load((row0 + j, heads + kv), (ATT_BN, D))
        s = tile.matmul(qt, tile.transpose(kt), tile.zeros((ATT_BM, ATT_BN), f32))
        s = tile.where(cols <= limit - j * ATT_BN, s, float("-inf"))
        m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True) * scale2)
        p = tile.exp2(s * scale2 - m_new)
        alpha = tile.exp2(m - m_new)
        den = den * alpha + tile.sum(p, axis=1, keepdims=True)
        vt = qkv.load((row0 + j, heads + kv_heads + kv), (ATT_BN, D))
        acc = tile.matmul(p.astype(bf16), vt, acc * alpha)
        m = m_new
    out.store((acc * (1.0 / den)).astype(bf16))


@tile.kernel(num_warps=4, fast_math=True)
def decode_attention(
    out: Annotated[Partition[bf16], tile.Dims(1, GROUP * D)],
    qk: Tensor[bf16],
    k_cache: Tensor[bf16],
    v_cache: Tensor[bf16],
    length: i32,
    scale: f32,
) -> None:
    """One new query per sequence against its first `length` cached positions, one (batch, KV head) per tile
    block.  The GROUP query heads sharing the KV head are the rows of the scores; each is repeated REP times
    so the rows fill one warpgroup's 64-row MMA (the repeats cost tensor-core time, which the cache stream
    leaves idle anyway) and are folded back with a max over identical rows.  The caches are the
    `(max_positions, batch * KVH * 128)` views: key block j of (b, g) is tile (j, b * KVH + g)."""
    b = tile.bid(0)
    g = tile.bid(1)
    kv_col = b * tile.num_blocks(1) + g
    q4 = tile.reshape(qk.load((b, g), (1, GROUP * D)), (GROUP, 1, D))
    qt = tile.reshape(tile.broadcast_to(q4, (GROUP, REP, D)), (GROUP * REP, D))
    cols = tile.reshape(tile.iota(DEC_BN, i32), (1, DEC_BN))
    m = tile.full((GROUP * REP, 1), float("-inf"), f32)
    den = tile.zeros((GROUP * REP, 1), f32)
    acc = tile.zeros((GROUP * REP, D), f32)
    scale2 = scale * LOG2E
    for j in range((length + DEC_BN - 1) // DEC_BN):
        kt = k_cache.load((j, kv_col), (DEC_BN, D))
        s = tile.matmul(qt, tile.transpose(kt), tile.zeros((GROUP * REP, DEC_BN), f32))
        s = tile.where(cols < length - j * DEC_BN, s, float("-inf"))
        m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True) * scale2)
        p = tile.exp2(s * scale2 - m_new)
        alpha = tile.exp2(m - m_new)
        den = den * alpha + tile.sum(p, axis=1, keepdims=True)
        acc = tile.matmul(p.astype(bf16), v_cache.load((j, kv_col), (DEC_BN, D)), acc * alpha)
        m = m_new
    # rounded to bf16 before the fold: its shared-memory staging is half the size, which lets two CTAs share an SM
    o = tile.max(tile.reshape((acc * (1.0 / den)).astype(bf16), (GROUP, REP, D)), axis=1)
    out.store(tile.reshape(o, (1, GROUP * D)))


ALL = [
    rmsnorm,
    gemm,
    add_rmsnorm,
    residual_add,
    silu_mul,
    dgemm,
    dgemm_residual,
    dgemm_swiglu,
    dgemm_splitk,
    splitk_add_rmsnorm,
    splitk_residual,
    rope,
    rope_decode,
    kv_append,
    attention,
    decode_attention,
]


# -- tables and the numpy reference (float64 math on bf16-rounded values) -------------------------------------


def rope_tables(positions: int, theta: float = 500000.0) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """`(positions, 128)` f32 tables for `rope`: cos of each frequency twice, and `-sin` then `+sin`."""
    inv = 1.0 / theta ** (np.arange(0, D, 2, dtype=np.float64) / D)
    ang = np.arange(positions, dtype=np.float64)[:, None] * inv[None, :]
    cos = np.concatenate([np.cos(ang), np.cos(ang)], axis=1).astype(np.float32)
    sin = np.concatenate([-np.sin(ang), np.sin(ang)], axis=1).astype(np.float32)
    return cos, sin


def interleave_gate_up(gate: npt.NDArray[Any], up: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The `(hidden, 2 * I)` gate/up weight from the K-major `(hidden, I)` gate and up weights (I % GU == 0)."""
    k, inter = gate.shape
    return np.stack([gate.reshape(k, inter // GU, GU), up.reshape(k, inter // GU, GU)], axis=2).reshape(k, 2 * inter)


def ref_rmsnorm(x: npt.NDArray[Any], w: npt.NDArray[Any], eps: float) -> npt.NDArray[np.float64]:
    x = x.astype(np.float64)
    return np.asarray(x / np.sqrt((x * x).mean(axis=1, keepdims=True) + eps) * w.astype(np.float64), np.float64)


def ref_rope(x: npt.NDArray[Any], positions: npt.NDArray[Any], theta: float = 500000.0) -> npt.NDArray[np.float64]:
    """Rotate-half rotary embedding of `(tokens, heads * 128)` at `positions` (one per token)."""
    cos, sin = rope_tables(int(positions.max()) + 1, theta)
    t, width = x.shape
    h = x.astype(np.float64).reshape(t, width // D, D)
    rot = np.concatenate([h[..., HALF:], h[..., :HALF]], axis=-1)
    c = cos.astype(np.float64)[positions][:, None, :]
    s = sin.astype(np.float64)[positions][:, None, :]
    return np.asarray((h * c + rot * s).reshape(t, width), np.float64)


def ref_attention(
    q: npt.NDArray[Any], k: npt.NDArray[Any], v: npt.NDArray[Any], q_pos: npt.NDArray[Any]
) -> npt.NDArray[np.float64]:
    """Grouped-KV attention of one sequence: q (Tq, H*128), k/v (Tk, KVH*128); query t sees keys <= q_pos[t]."""
    heads, kv_heads = q.shape[1] // D, k.shape[1] // D
    out = np.empty(q.shape, np.float64)
    mask = np.arange(k.shape[0])[None, :] <= q_pos[:, None]
    for h in range(heads):
        kv = h // (heads // kv_heads)
        qh = q[:, h * D : (h + 1) * D].astype(np.float64)
        kh = k[:, kv * D : (kv + 1) * D].astype(np.float64)
        vh = v[:, kv * D : (kv + 1) * D].astype(np.float64)
        s = np.where(mask, qh @ kh.T / math.sqrt(D), -np.inf)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        out[:, h * D : (h + 1) * D] = (e / e.sum(axis=1, keepdims=True)) @ vh
    return out
