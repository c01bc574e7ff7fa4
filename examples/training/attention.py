"""Flash attention for training, in the tile language: a forward pass that saves the logsumexp, and the
FlashAttention-2 backward pass (dQ, dK, dV).

Q, K, V, O and their gradients are (batch * heads * seq, d) bf16 matrices, one head's `seq` rows after another;
`seq` is a multiple of 128.  With S = Q K^T * scale and P = softmax(S) per row:

    forward    O = P V, and LSE = logsumexp(S) per row, kept for the backward pass (in log2 units: the kernels
               work with exp2, so what is stored is log2(sum_j 2^(S_ij * log2 e)) = LSE * log2 e)
    backward   D  = rowsum(dO * O)                       (per query row)
               P  = exp2(S * log2 e - LSE2)              (recomputed from the saved LSE: no (seq, seq) matrix)
               dV = P^T dO
               dS = P * (dO V^T - D)
               dK = scale * dS^T Q
               dQ = scale * dS K

The LSE and D are stored as (rows // 64, 64) f32 matrices, so each kernel can read them in 64- or 128-row
blocks.  The backward pass, FlashAttention-2's way (`FlashKernels.fused`: `FUSED` and a key block of d rows):

    attention_bwd_delta       D = rowsum(dO * O), 128 query rows per tile block
    attention_bwd_fused       one tile block per `kv_bn` keys: a loop over the query blocks that see them,
                              accumulating dK and dV in registers on transposed scores (S^T = K Q^T, so P^T and
                              dS^T are already in the layout their matmuls need), and adding each step's share
                              of dQ into an f32 `AtomicTensor` by `tile.atomic_add`; the share is computed
                              transposed, dQ^T = K^T dS^T, so the register tile dS^T is its B operand and K, read
                              transposed from the tile the scores read, its A (M = d: one warpgroup per 64 rows of
                              d, hence kv_bn = d)
    attention_bwd_dq_convert  dQ in bf16 from the f32 sums

or, without atomics, two kernels (the default: faster on the H200, see `FUSED`):

    attention_bwd_dq    one tile block per `dq_bm` query rows: D for its rows (stored for the other kernel),
                        then a loop over the key blocks the rows see, accumulating dQ in registers
    attention_bwd_dkdv  as the fused kernel, without dQ

The pair recomputes S and dO V^T in the dq kernel (7 matmuls instead of 5, as in Triton's tutorial).  Every
kernel loads each tile once even where two matmuls read it (K as K^T and K; Q and dO plainly and transposed):
on sm_90a one shared-memory tile serves every reading (docs/tile-compiler.md, "Transposed operands").
`flash_kernels(d)` builds the kernels for one head dim (a tile shape is a compile-time constant, so each head dim
is its own set of kernels); the module exposes the d=64 set by name and `flash_kernels(128)` is built on first
use.  `torch_ops.py` wires them into torch's autograd.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import bf16, f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

LOG2E = 1.4426950408889634
LSE_W = 64  # the LSE and D tensors are (rows // LSE_W, LSE_W) f32: one row of the matrix per 64 query rows
FWD_BM, FWD_BN = 128, 128  # forward: query rows per tile block, keys per step
SEQ_MULTIPLE = 128


@dataclass(frozen=True)
class FlashKernels:
    """The forward and backward kernels for one head dim and block configuration."""

    d: int
    dq_bm: int
    dq_bn: int
    kv_bn: int
    kv_bm: int
    forward: Any
    bwd_dq: Any
    bwd_dkdv: Any
    bwd_delta: Any
    bwd_fused: Any
    bwd_dq_convert: Any

    @property
    def fused(self) -> bool:
        """Whether the backward pass runs as FlashAttention-2 does (`bwd_delta`, `bwd_fused` with dQ by atomics,
        `bwd_dq_convert`) rather than as the `bwd_dq` and `bwd_dkdv` pair: the fused kernel's dQ^T matmul has
        M = d, one warpgroup per 64 rows, so its key block must be d rows."""
        return self.kv_bn == self.d and FUSED


#: Backward block sizes per head dim: (dq_bm, dq_bn, kv_bn, kv_bm).  Each is 64 or 128; a kernel gets one
#: warpgroup (4 warps) per 64 rows of its tile block (dq_bm, kv_bn).  128-key steps of the dq kernel fit in
#: shared memory at d=128 since K is staged once (192 KB); they measured fastest at both head dims on the H200.
BLOCKS = {64: (128, 128, 128, 64), 128: (128, 128, 128, 64)}
DEFAULT_BLOCKS = (128, 128, 128, 64)
#: Run the backward pass fused (FlashAttention-2's dQ by atomics) wherever the key block is d rows.  Off: on the
#: H200 the fused kernel's per-element f32 atomics (2.1e9 at 4x32x4096, d=128) cost more than the dq kernel's
#: two recomputed matmuls (9.70 ms against the pair's 8.98; docs/benchmarks-tile.md, "Backward").
FUSED = False


def flash_kernels(d: int, blocks: tuple[int, int, int, int] | None = None) -> FlashKernels:
    """The kernels for head dim `d`, built once per configuration: `blocks` is (`dq_bm` query rows per tile
    block and `dq_bn` keys per step of the dq kernel, `kv_bn` keys per tile block and `kv_bm` queries per
    step of the dkdv kernel), by default `BLOCKS[d]`."""
    return _build(d, *(blocks or BLOCKS.get(d, DEFAULT_BLOCKS)))


@functools.cache
def _build(d: int, dq_bm: int, dq_bn: int, kv_bn: int, kv_bm: int) -> FlashKernels:
    if d % 16 or not 16 <= d <= 256:
        raise ValueError(f"head dim must be a multiple of 16 in [16, 256], got {d}")
    if any(b not in (64, 128) for b in (dq_bm, dq_bn, kv_bn, kv_bm)):
        raise ValueError(f"block sizes must be 64 or 128: {(dq_bm, dq_bn, kv_bn, kv_bm)}")
    dq_lse = (dq_bm // LSE_W, LSE_W)  # the dq kernel's block of the LSE / D matrices
    kv_lse = (kv_bm // LSE_W, LSE_W)  # one query step's block of them in the dkdv kernel
    fwd_lse = (FWD_BM // LSE_W, LSE_W)

    @tile.kernel(num_warps=8, fast_math=True)
    def attention_fwd(
        out: Annotated[Partition[bf16], tile.Dims(FWD_BM, d)],
        lse: Annotated[Partition[f32], tile.Dims(FWD_BM // LSE_W, LSE_W)],
        q: Tensor[bf16],
        k: Tensor[bf16],
        v: Tensor[bf16],
        seq: i32,
        scale: f32,
        causal: i32,
    ) -> None:
        """O = softmax(Q K^T * scale) V for 128 query rows, and their logsumexp in log2 units (needs
        scale > 0: the running max is taken on the raw scores)."""
        i = tile.bid(0)
        q_blocks = seq // FWD_BM
        qb = i % q_blocks
        kv0 = (i // q_blocks) * (seq // FWD_BN)
        n_kv = causal * (((qb + 1) * FWD_BM + FWD_BN - 1) // FWD_BN) + (1 - causal) * (seq // FWD_BN)
        qt = q.load((i, 0), (FWD_BM, d))
        limit = tile.reshape(tile.iota(FWD_BM, i32), (FWD_BM, 1)) + (qb * FWD_BM + (1 - causal) * seq)
        cols = tile.reshape(tile.iota(FWD_BN, i32), (1, FWD_BN))
        m = tile.full((FWD_BM, 1), float("-inf"), f32)
        den = tile.zeros((FWD_BM, 1), f32)
        acc = tile.zeros((FWD_BM, d), f32)
        scale2 = scale * LOG2E
        for j in range(n_kv):
            kt = k.load((kv0 + j, 0), (FWD_BN, d))
            s = tile.matmul(qt, tile.transpose(kt), tile.zeros((FWD_BM, FWD_BN), f32))
            s = tile.where(cols <= limit - j * FWD_BN, s, float("-inf"))
            m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True) * scale2)
            p = tile.exp2(s * scale2 - m_new)
            alpha = tile.exp2(m - m_new)
            den = den * alpha + tile.sum(p, axis=1, keepdims=True)
            acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (FWD_BN, d)), acc * alpha)
            m = m_new
        out.store((acc * (1.0 / den)).astype(bf16))
        lse.store(tile.reshape(m + tile.log(den) * LOG2E, fwd_lse))

    @tile.kernel(num_warps=4 * dq_bm // 64, fast_math=True)
    def attention_bwd_dq(
        dq: Annotated[Partition[bf16], tile.Dims(dq_bm, d)],
        delta: Annotated[Partition[f32], tile.Dims(dq_bm // LSE_W, LSE_W)],
        q: Tensor[bf16],
        k: Tensor[bf16],
        v: Tensor[bf16],
        o: Tensor[bf16],
        do: Tensor[bf16],
        lse: Tensor[f32],
        seq: i32,
        scale: f32,
        causal: i32,
    ) -> None:
        """dQ for `dq_bm` query rows, and D = rowsum(dO * O) for them (the dkdv kernel reads it)."""
        i = tile.bid(0)
        q_blocks = seq // dq_bm
        qb = i % q_blocks
        kv0 = (i // q_blocks) * (seq // dq_bn)
        n_kv = causal * (((qb + 1) * dq_bm + dq_bn - 1) // dq_bn) + (1 - causal) * (seq // dq_bn)
        qt = q.load((i, 0), (dq_bm, d))
        dot = do.load((i, 0), (dq_bm, d))
        dl = tile.sum(dot.astype(f32) * o.load((i, 0), (dq_bm, d)).astype(f32), axis=1, keepdims=True)
        delta.store(tile.reshape(dl, dq_lse))
        lse_rows = tile.reshape(lse.load((i, 0), dq_lse), (dq_bm, 1))
        limit = tile.reshape(tile.iota(dq_bm, i32), (dq_bm, 1)) + (qb * dq_bm + (1 - causal) * seq)
        cols = tile.reshape(tile.iota(dq_bn, i32), (1, dq_bn))
        scale2 = scale * LOG2E
        acc = tile.zeros((dq_bm, d), f32)
        for j in range(n_kv):
            kt = k.load((kv0 + j, 0), (dq_bn, d))  # read as K^T and as K from one staged tile
            s = tile.matmul(qt, tile.transpose(kt), tile.zeros((dq_bm, dq_bn), f32))
            p = tile.where(cols <= limit - j * dq_bn, tile.exp2(s * scale2 - lse_rows), 0.0)
            dp = tile.matmul(dot, tile.transpose(v.load((kv0 + j, 0), (dq_bn, d))), tile.zeros((dq_bm, dq_bn), f32))
            ds = p * (dp - dl)
            acc = tile.matmul(ds.astype(bf16), kt, acc)
        dq.store((acc * scale).astype(bf16))

    @tile.kernel(num_warps=4 * kv_bn // 64, fast_math=True)
    def attention_bwd_dkdv(
        dk: Annotated[Partition[bf16], tile.Dims(kv_bn, d)],
        dv: Annotated[Partition[bf16], tile.Dims(kv_bn, d)],
        q: Tensor[bf16],
        k: Tensor[bf16],
        v: Tensor[bf16],
        do: Tensor[bf16],
        lse: Tensor[f32],
        delta: Tensor[f32],
        seq: i32,
        scale: f32,
        causal: i32,
    ) -> None:
        """dK and dV for `kv_bn` keys, over the query blocks that see them, on transposed scores."""
        i = tile.bid(0)
        kv_blocks = seq // kv_bn
        kb = i % kv_blocks
        q0 = (i // kv_blocks) * (seq // kv_bm)  # the head's first query block
        first = causal * ((kb * kv_bn) // kv_bm)  # causal: query blocks before the keys see none of them
        n_q = seq // kv_bm - first
        kt = k.load((i, 0), (kv_bn, d))
        vt = v.load((i, 0), (kv_bn, d))
        # key position (rows) <= query position (columns), or everything when not causal
        keys = tile.reshape(tile.iota(kv_bn, i32), (kv_bn, 1)) + (kb * kv_bn - (1 - causal) * seq)
        queries = tile.reshape(tile.iota(kv_bm, i32), (1, kv_bm))
        scale2 = scale * LOG2E
        dk_acc = tile.zeros((kv_bn, d), f32)
        dv_acc = tile.zeros((kv_bn, d), f32)
        for jj in range(n_q):
            j = q0 + first + jj  # global query block
            qt = q.load((j, 0), (kv_bm, d))
            dot = do.load((j, 0), (kv_bm, d))
            lse_cols = tile.reshape(lse.load((j, 0), kv_lse), (1, kv_bm))
            d_cols = tile.reshape(delta.load((j, 0), kv_lse), (1, kv_bm))
            st = tile.matmul(kt, tile.transpose(qt), tile.zeros((kv_bn, kv_bm), f32))
            pt = tile.where(keys <= queries + (first + jj) * kv_bm, tile.exp2(st * scale2 - lse_cols), 0.0)
            dv_acc = tile.matmul(pt.astype(bf16), dot, dv_acc)
            dpt = tile.matmul(vt, tile.transpose(dot), tile.zeros((kv_bn, kv_bm), f32))
            dst = pt * (dpt - d_cols)
            dk_acc = tile.matmul(dst.astype(bf16), qt, dk_acc)
        dk.store((dk_acc * scale).astype(bf16))
        dv.store(dv_acc.astype(bf16))

    @tile.kernel(num_warps=4, fast_math=True)
    def attention_bwd_delta(
        delta: Annotated[Partition[f32], tile.Dims(FWD_BM // LSE_W, LSE_W)],
        o: Tensor[bf16],
        do: Tensor[bf16],
    ) -> None:
        """D = rowsum(dO * O) for 128 query rows (the fused kernel's dS needs every query row's D)."""
        i = tile.bid(0)
        dl = tile.sum(do.load((i, 0), (FWD_BM, d)).astype(f32) * o.load((i, 0), (FWD_BM, d)).astype(f32), axis=1)
        delta.store(tile.reshape(dl, fwd_lse))

    @tile.kernel(num_warps=4 * kv_bn // 64, fast_math=True)
    def attention_bwd_fused(
        dk: Annotated[Partition[bf16], tile.Dims(kv_bn, d)],
        dv: Annotated[Partition[bf16], tile.Dims(kv_bn, d)],
        dq_acc: AtomicTensor[f32],
        q: Tensor[bf16],
        k: Tensor[bf16],
        v: Tensor[bf16],
        do: Tensor[bf16],
        lse: Tensor[f32],
        delta: Tensor[f32],
        seq: i32,
        scale: f32,
        causal: i32,
    ) -> None:
        """FlashAttention-2's backward for `kv_bn` keys: dK and dV in registers, and each query block's share
        of dQ = scale * dS K added into `dq_acc` (f32, zeroed) by atomics.  The share is computed transposed,
        dQ^T = K^T dS^T (M = d rows, one warpgroup per 64 of them), so dS^T, already in registers for dK,
        is the B operand and K the (transposed) A that the scores read."""
        i = tile.bid(0)
        kv_blocks = seq // kv_bn
        kb = i % kv_blocks
        q0 = (i // kv_blocks) * (seq // kv_bm)
        first = causal * ((kb * kv_bn) // kv_bm)
        n_q = seq // kv_bm - first
        kt = k.load((i, 0), (kv_bn, d))
        vt = v.load((i, 0), (kv_bn, d))
        keys = tile.reshape(tile.iota(kv_bn, i32), (kv_bn, 1)) + (kb * kv_bn - (1 - causal) * seq)
        queries = tile.reshape(tile.iota(kv_bm, i32), (1, kv_bm))
        dq_cols = tile.reshape(tile.iota(d, i32), (d, 1))
        scale2 = scale * LOG2E
        dk_acc = tile.zeros((kv_bn, d), f32)
        dv_acc = tile.zeros((kv_bn, d), f32)
        for jj in range(n_q):
            j = q0 + first + jj
            qt = q.load((j, 0), (kv_bm, d))
            dot = do.load((j, 0), (kv_bm, d))
            lse_cols = tile.reshape(lse.load((j, 0), kv_lse), (1, kv_bm))
            d_cols = tile.reshape(delta.load((j, 0), kv_lse), (1, kv_bm))
            st = tile.matmul(kt, tile.transpose(qt), tile.zeros((kv_bn, kv_bm), f32))
            pt = tile.where(keys <= queries + (first + jj) * kv_bm, tile.exp2(st * scale2 - lse_cols), 0.0)
            dv_acc = tile.matmul(pt.astype(bf16), dot, dv_acc)
            dpt = tile.matmul(vt, tile.transpose(dot), tile.zeros((kv_bn, kv_bm), f32))
            dst = (pt * (dpt - d_cols)).astype(bf16)
            dk_acc = tile.matmul(dst, qt, dk_acc)
            dqt = tile.matmul(tile.transpose(kt), dst, tile.zeros((d, kv_bm), f32))
            tile.atomic_add(dq_acc, (queries + j * kv_bm, dq_cols), dqt * scale)
        dk.store((dk_acc * scale).astype(bf16))
        dv.store(dv_acc.astype(bf16))

    @tile.kernel(num_warps=4)
    def attention_bwd_dq_convert(dq: Annotated[Partition[bf16], tile.Dims(FWD_BM, d)], dq_acc: Tensor[f32]) -> None:
        """dQ in bf16 from the fused kernel's f32 sums."""
        dq.store(dq_acc.load((tile.bid(0), 0), (FWD_BM, d)).astype(bf16))

    return FlashKernels(
        d,
        dq_bm,
        dq_bn,
        kv_bn,
        kv_bm,
        attention_fwd,
        attention_bwd_dq,
        attention_bwd_dkdv,
        attention_bwd_delta,
        attention_bwd_fused,
        attention_bwd_dq_convert,
    )


# The d=64 kernels by name (the parity suite finds module-level kernels; d=128 is `flash_kernels(128)`).
_D64 = flash_kernels(64)
attention_fwd = _D64.forward
attention_bwd_dq = _D64.bwd_dq
attention_bwd_dkdv = _D64.bwd_dkdv
attention_bwd_delta = _D64.bwd_delta
attention_bwd_fused = _D64.bwd_fused
attention_bwd_dq_convert = _D64.bwd_dq_convert


def lse_shape(rows: int) -> tuple[int, int]:
    """Shape of the LSE and D tensors for `rows` query rows."""
    return (rows // LSE_W, LSE_W)


def check_shapes(rows: int, d: int, seq: int) -> None:
    if seq <= 0 or seq % SEQ_MULTIPLE:
        raise ValueError(f"seq must be a positive multiple of {SEQ_MULTIPLE}, got {seq}")
    if rows % seq:
        raise ValueError(f"the row count {rows} is not a whole number of heads of {seq} rows")


Array = npt.NDArray[Any]


def forward(device: sk.Device, q: Array, k: Array, v: Array, seq: int, causal: bool) -> tuple[Array, Array]:
    """Run the forward kernel on `device` over (heads * seq, d) arrays; returns (O, LSE in log2 units)."""
    rows, d = q.shape
    check_shapes(rows, d, seq)
    ks = flash_kernels(d)
    stream = device.new_stream()
    out = tile.zeros((rows, d), bf16).partition((FWD_BM, d))
    lse = tile.zeros(lse_shape(rows), f32).partition((FWD_BM // LSE_W, LSE_W))
    qt, kt, vt = (tile.from_numpy(x, dtype=bf16) for x in (q, k, v))
    out, lse, *_ = ks.forward(out, lse, qt, kt, vt, seq, 1.0 / math.sqrt(d), int(causal)).sync_on(stream)
    return out.unpartition().to_numpy(stream), lse.unpartition().to_numpy(stream).reshape(rows)


def backward(
    device: sk.Device, q: Array, k: Array, v: Array, o: Array, do: Array, lse2: Array, seq: int, causal: bool
) -> tuple[Array, Array, Array]:
    """Run the two backward kernels on `device`; `lse2` is the forward's LSE (log2 units, one per row)."""
    rows, d = q.shape
    check_shapes(rows, d, seq)
    ks = flash_kernels(d)
    scale = 1.0 / math.sqrt(d)
    stream = device.new_stream()
    qt, kt, vt, ot, dot = (tile.from_numpy(x, dtype=bf16).shared() for x in (q, k, v, o, do))
    lse = tile.from_numpy(np.ascontiguousarray(lse2, np.float32).reshape(lse_shape(rows))).shared()
    dk = tile.zeros((rows, d), bf16).partition((ks.kv_bn, d))
    dv = tile.zeros((rows, d), bf16).partition((ks.kv_bn, d))
    if ks.fused:
        delta = tile.zeros(lse_shape(rows), f32).partition((FWD_BM // LSE_W, LSE_W))
        delta, *_ = ks.bwd_delta(delta, ot, dot).sync_on(stream)
        dacc = tile.zeros((rows, d), f32)
        args = (qt, kt, vt, dot, lse, delta.unpartition(), seq, scale, int(causal))
        dk, dv, dacc, *_ = ks.bwd_fused(dk, dv, dacc, *args).sync_on(stream)
        dq = tile.zeros((rows, d), bf16).partition((FWD_BM, d))
        dq, *_ = ks.bwd_dq_convert(dq, dacc).sync_on(stream)
        return tuple(t.unpartition().to_numpy(stream) for t in (dq, dk, dv))
    dq = tile.zeros((rows, d), bf16).partition((ks.dq_bm, d))
    delta = tile.zeros(lse_shape(rows), f32).partition((ks.dq_bm // LSE_W, LSE_W))
    dq, delta, *_ = ks.bwd_dq(dq, delta, qt, kt, vt, ot, dot, lse, seq, scale, int(causal)).sync_on(stream)
    dk, dv, *_ = ks.bwd_dkdv(dk, dv, qt, kt, vt, dot, lse, delta.unpartition(), seq, scale, int(causal)).sync_on(stream)
    return tuple(t.unpartition().to_numpy(stream) for t in (dq, dk, dv))


def reference(
    q: Array, k: Array, v: Array, do: Array, seq: int, causal: bool
) -> tuple[Array, Array, Array, Array, Array]:
    """float64 (O, natural-log LSE, dQ, dK, dV) per head of `seq` rows, scale 1/sqrt(d)."""
    d = q.shape[1]
    o, dq, dk, dv = (np.empty(q.shape) for _ in range(4))
    lse = np.empty(q.shape[0])
    for h in range(q.shape[0] // seq):
        rows = slice(h * seq, (h + 1) * seq)
        qh, kh, vh, doh = (x[rows].astype(np.float64) for x in (q, k, v, do))
        s = qh @ kh.T / math.sqrt(d)
        if causal:
            s = np.where(np.tril(np.ones((seq, seq), bool)), s, -np.inf)
        mx = s.max(axis=1, keepdims=True)
        e = np.exp(s - mx)
        den = e.sum(axis=1, keepdims=True)
        p = e / den
        o[rows] = p @ vh
        lse[rows] = (mx + np.log(den))[:, 0]
        dv[rows] = p.T @ doh
        dp = doh @ vh.T
        ds = p * (dp - (doh * o[rows]).sum(axis=1, keepdims=True))
        dq[rows] = ds @ kh / math.sqrt(d)
        dk[rows] = ds.T @ qh / math.sqrt(d)
    return o, lse, dq, dk, dv


def random_inputs(heads: int, seq: int, d: int, seed: int = 0) -> tuple[Array, Array, Array, Array]:
    """bf16-representable (q, k, v, dO) as float32 arrays of shape (heads * seq, d)."""
    rng = np.random.default_rng(seed)
    return tuple(  # type: ignore[return-value]
        sk.dtypes.bf16_to_f32(sk.dtypes.f32_to_bf16(rng.standard_normal((heads * seq, d)))) for _ in range(4)
    )


def main() -> None:
    heads, seq, d = 2, 256, 64
    device = sk.Device.default()
    q, k, v, do = random_inputs(heads, seq, d)
    for causal in (False, True):
        o, lse2 = forward(device, q, k, v, seq, causal)
        dq, dk, dv = backward(device, q, k, v, o, do, lse2, seq, causal)
        want = reference(q, k, v, do, seq, causal)
        np.testing.assert_allclose(o, want[0], rtol=2e-2, atol=2e-2)
        np.testing.assert_allclose(lse2 / LOG2E, want[1], rtol=1e-3, atol=1e-3)
        for got, ref in zip((dq, dk, dv), want[2:], strict=True):
            np.testing.assert_allclose(got, ref, rtol=5e-2, atol=5e-2)
        print(f"training attention: {heads} heads x {seq} tokens, d={d}, bf16, causal={causal}, on {device!r}")
    print("PASSED")


if __name__ == "__main__":
    main()
