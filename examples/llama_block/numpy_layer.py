"""The decoder layer without torch: random weights, a float64 numpy reference, and the layer run kernel by kernel
through the tile API on any `sk.Device` (the CPU executor in tests/llama/, a GPU too).

The torch module (`layer.py`) launches the same kernels in the same order through `custom_op`; this driver is
how the layer is checked where torch is not installed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import bf16, bf16_to_f32, f32, f32_to_bf16

from . import kernels as K

Array = npt.NDArray[Any]


@dataclass(frozen=True)
class Config:
    """Layer shapes; `llama3_8b()` is Llama-3-8B's, `tiny()` what the CPU executor runs in seconds."""

    hidden: int
    heads: int
    kv_heads: int
    intermediate: int
    eps: float = 1e-5
    theta: float = 500000.0

    @staticmethod
    def llama3_8b() -> Config:
        return Config(hidden=4096, heads=32, kv_heads=8, intermediate=14336)

    @staticmethod
    def tiny() -> Config:
        return Config(hidden=1024, heads=8, kv_heads=2, intermediate=256)

    def check(self) -> None:
        """The kernels' fixed tile parameters: head dim 128, GROUP query heads per KV head, rows <= HID."""
        if self.hidden != self.heads * K.D or self.heads != K.GROUP * self.kv_heads or self.hidden > K.HID:
            raise ValueError(
                f"{self}: the kernels need hidden = heads * {K.D}, heads = {K.GROUP} * kv_heads and hidden <= {K.HID}"
            )

    @property
    def qkv_width(self) -> int:
        return (self.heads + 2 * self.kv_heads) * K.D

    @property
    def qk_width(self) -> int:
        return (self.heads + self.kv_heads) * K.D


def bf16_round(x: Array) -> npt.NDArray[np.float32]:
    """Round to bf16 and back to float32 (numpy has no bf16)."""
    return bf16_to_f32(f32_to_bf16(np.asarray(x, np.float32)))


@dataclass(frozen=True)
class Weights:
    """bf16-valued float32 arrays; projections K-major `(in, out)` (`nn.Linear.weight.T`)."""

    norm1: Array
    norm2: Array
    w_qkv: Array
    w_o: Array
    w_gate: Array
    w_up: Array
    w_down: Array


def random_weights(cfg: Config, seed: int = 0) -> Weights:
    rng = np.random.default_rng(seed)

    def proj(n_in: int, n_out: int) -> Array:
        return bf16_round(rng.standard_normal((n_in, n_out)) / math.sqrt(n_in))

    return Weights(
        norm1=bf16_round(1.0 + 0.1 * rng.standard_normal(cfg.hidden)),
        norm2=bf16_round(1.0 + 0.1 * rng.standard_normal(cfg.hidden)),
        w_qkv=proj(cfg.hidden, cfg.qkv_width),
        w_o=proj(cfg.hidden, cfg.hidden),
        w_gate=proj(cfg.hidden, cfg.intermediate),
        w_up=proj(cfg.hidden, cfg.intermediate),
        w_down=proj(cfg.intermediate, cfg.hidden),
    )


# -- the float64 reference ------------------------------------------------------------------------------------


def _mlp_and_residuals(x: Array, att: Array, w: Weights, cfg: Config) -> Array:
    h = x.astype(np.float64) + att @ w.w_o.astype(np.float64)
    n2 = K.ref_rmsnorm(h, w.norm2, cfg.eps)
    g = n2 @ w.w_gate.astype(np.float64)
    u = n2 @ w.w_up.astype(np.float64)
    return np.asarray(h + (g / (1.0 + np.exp(-g)) * u) @ w.w_down.astype(np.float64))


def reference_prefill(x: Array, w: Weights, cfg: Config, batch: int) -> Array:
    """The layer on `x` = `(batch * seq, hidden)` (causal within each sequence), in float64."""
    seq = x.shape[0] // batch
    qkv = K.ref_rmsnorm(x, w.norm1, cfg.eps) @ w.w_qkv.astype(np.float64)
    q_end, k_end = cfg.hidden, cfg.hidden + cfg.kv_heads * K.D
    positions = np.tile(np.arange(seq), batch)
    q = K.ref_rope(qkv[:, :q_end], positions, cfg.theta)
    k = K.ref_rope(qkv[:, q_end:k_end], positions, cfg.theta)
    v = qkv[:, k_end:]
    att = np.concatenate(
        [
            K.ref_attention(q[s : s + seq], k[s : s + seq], v[s : s + seq], np.arange(seq))
            for s in range(0, x.shape[0], seq)
        ]
    )
    return _mlp_and_residuals(x, att, w, cfg)


def reference_decode(
    x: Array, w: Weights, cfg: Config, k_cache: Array, v_cache: Array, pos: int
) -> tuple[Array, Array, Array]:
    """One new token per sequence at position `pos`; caches `(max_positions, batch, kv_heads * 128)` hold the
    past keys (rotated) and values.  Returns (output, the new rotated K row, the new V row)."""
    qkv = K.ref_rmsnorm(x, w.norm1, cfg.eps) @ w.w_qkv.astype(np.float64)
    q_end, k_end = cfg.hidden, cfg.hidden + cfg.kv_heads * K.D
    positions = np.full(x.shape[0], pos)
    q = K.ref_rope(qkv[:, :q_end], positions, cfg.theta)
    k_new = K.ref_rope(qkv[:, q_end:k_end], positions, cfg.theta)
    v_new = qkv[:, k_end:]
    att = np.empty((x.shape[0], cfg.hidden))
    for b in range(x.shape[0]):
        keys = np.concatenate([k_cache[:pos, b].astype(np.float64), k_new[b : b + 1]])
        values = np.concatenate([v_cache[:pos, b].astype(np.float64), v_new[b : b + 1]])
        att[b] = K.ref_attention(q[b : b + 1], keys, values, np.array([pos]))[0]
    return _mlp_and_residuals(x, att, w, cfg), k_new, v_new


# -- the layer through the tile API ---------------------------------------------------------------------------


def _bf16(a: Array) -> Any:
    return tile.from_numpy(np.ascontiguousarray(a, np.float32), dtype=bf16)


def tile_prefill(device: sk.Device, x: Array, w: Weights, cfg: Config, batch: int) -> Array:
    """The layer on `device`, one kernel at a time, in `layer.py`'s order; returns the output as float32."""
    cfg.check()
    t, seq = x.shape[0], x.shape[0] // batch
    stream = device.new_stream()
    cos, sin = K.rope_tables(seq, cfg.theta)
    n1, x_in, _, _ = K.rmsnorm(
        tile.zeros((t, cfg.hidden), bf16).partition((1, K.HID)), _bf16(x), _bf16(w.norm1), cfg.eps
    ).sync_on(stream)
    qkv, _, _ = K.gemm(
        tile.zeros((t, cfg.qkv_width), bf16).partition((K.BM, K.BN)), n1.unpartition(), _bf16(w.w_qkv)
    ).sync_on(stream)
    qkv_t = qkv.unpartition()
    qk, qkv_t, _, _, _ = K.rope(
        tile.zeros((t, cfg.qk_width), bf16).partition((K.ROPE_R, K.HALF)),
        qkv_t,
        tile.from_numpy(cos),
        tile.from_numpy(sin),
        seq,
    ).sync_on(stream)
    att, _, _, _, _ = K.attention(
        tile.zeros((t, cfg.hidden), bf16).partition((K.ATT_BM, K.D)), qk.unpartition(), qkv_t, seq, 1 / math.sqrt(K.D)
    ).sync_on(stream)
    o, _, _ = K.gemm(
        tile.zeros((t, cfg.hidden), bf16).partition((K.BM, K.BN)), att.unpartition(), _bf16(w.w_o)
    ).sync_on(stream)
    h, n2, _, _, _, _ = K.add_rmsnorm(
        tile.zeros((t, cfg.hidden), bf16).partition((1, K.HID)),
        tile.zeros((t, cfg.hidden), bf16).partition((1, K.HID)),
        o.unpartition(),
        x_in,
        _bf16(w.norm2),
        cfg.eps,
    ).sync_on(stream)
    gu, _, _ = K.gemm(
        tile.zeros((t, 2 * cfg.intermediate), bf16).partition((K.BM, K.BN)),
        n2.unpartition(),
        _bf16(K.interleave_gate_up(w.w_gate, w.w_up)),
    ).sync_on(stream)
    mlp, _ = K.silu_mul(tile.zeros((t, cfg.intermediate), bf16).partition((K.SM_R, K.GU)), gu.unpartition()).sync_on(
        stream
    )
    down, _, _ = K.gemm(
        tile.zeros((t, cfg.hidden), bf16).partition((K.BM, K.BN)), mlp.unpartition(), _bf16(w.w_down)
    ).sync_on(stream)
    out, _, _ = K.residual_add(
        tile.zeros((t, cfg.hidden), bf16).partition((1, K.HID)), down.unpartition(), h.unpartition()
    ).sync_on(stream)
    return out.unpartition().to_numpy(stream)


def tile_decode(
    device: sk.Device, x: Array, w: Weights, cfg: Config, k_cache: Array, v_cache: Array, pos: int, splits: int = 3
) -> tuple[Array, Array, Array]:
    """One decode step on `device` (see `reference_decode`); returns (output, new K row, new V row) as float32.

    `kv_append` writes the new rows into slot tensors here; the host puts them at `pos` before the attention
    (the torch module passes the cache rows `cache[pos]` themselves).  The O projection is split `splits` ways
    along K and summed by `splitk_add_rmsnorm`; so is the down projection, or with `splits=1` it is one GEMM
    with the residual add in its epilogue."""
    cfg.check()
    b, max_pos = x.shape[0], k_cache.shape[0]
    kv_width = cfg.kv_heads * K.D
    stream = device.new_stream()
    cos, sin = K.rope_tables(max_pos, cfg.theta)
    n1, x_in, _, _ = K.rmsnorm(
        tile.zeros((b, cfg.hidden), bf16).partition((1, K.HID)), _bf16(x), _bf16(w.norm1), cfg.eps
    ).sync_on(stream)
    qkv, _, _ = K.dgemm(
        tile.zeros((b, cfg.qkv_width), bf16).partition((K.DBM, K.DBN)), n1.unpartition(), _bf16(w.w_qkv)
    ).sync_on(stream)
    qkv_t = qkv.unpartition()
    qk, qkv_t, _, _, _ = K.rope_decode(
        tile.zeros((b, cfg.qk_width), bf16).partition((K.DEC_R, K.HALF)),
        qkv_t,
        tile.from_numpy(cos),
        tile.from_numpy(sin),
        pos,
    ).sync_on(stream)
    k_slot, v_slot, qk_t, _ = K.kv_append(
        tile.zeros((b, kv_width), bf16).partition((K.DEC_R, K.D)),
        tile.zeros((b, kv_width), bf16).partition((K.DEC_R, K.D)),
        qk.unpartition(),
        qkv_t,
    ).sync_on(stream)
    k_new, v_new = k_slot.unpartition().to_numpy(stream), v_slot.unpartition().to_numpy(stream)
    k_all, v_all = k_cache.copy(), v_cache.copy()
    k_all[pos], v_all[pos] = k_new, v_new
    att, _, _, _, _, _ = K.decode_attention(
        tile.zeros((b, cfg.hidden), bf16).partition((1, K.GROUP * K.D)),
        qk_t,
        _bf16(k_all.reshape(max_pos, b * kv_width)),
        _bf16(v_all.reshape(max_pos, b * kv_width)),
        pos + 1,
        1 / math.sqrt(K.D),
    ).sync_on(stream)
    parts, _, _ = K.dgemm_splitk(
        tile.zeros((splits, b, cfg.hidden), f32).partition((1, K.DBM, K.DBN)), att.unpartition(), _bf16(w.w_o)
    ).sync_on(stream)
    h, n2, _, x_in, _, _ = K.splitk_add_rmsnorm(
        tile.zeros((b, cfg.hidden), bf16).partition((1, K.HID)),
        tile.zeros((b, cfg.hidden), bf16).partition((1, K.HID)),
        parts.unpartition(),
        x_in,
        _bf16(w.norm2),
        cfg.eps,
    ).sync_on(stream)
    mlp, _, _ = K.dgemm_swiglu(
        tile.zeros((b, cfg.intermediate), bf16).partition((K.DBM, K.GU)),
        n2.unpartition(),
        _bf16(K.interleave_gate_up(w.w_gate, w.w_up)),
    ).sync_on(stream)
    h_t = h.unpartition()
    if splits == 1:  # the fused epilogue instead of split-K for the down projection
        out, _, _, _ = K.dgemm_residual(
            tile.zeros((b, cfg.hidden), bf16).partition((K.DBM, K.DBN)), mlp.unpartition(), _bf16(w.w_down), h_t
        ).sync_on(stream)
        return out.unpartition().to_numpy(stream), k_new, v_new
    parts, _, _ = K.dgemm_splitk(
        tile.zeros((splits, b, cfg.hidden), f32).partition((1, K.DBM, K.DBN)), mlp.unpartition(), _bf16(w.w_down)
    ).sync_on(stream)
    out, _, _ = K.splitk_residual(
        tile.zeros((b, cfg.hidden), bf16).partition((1, K.HID)), parts.unpartition(), h_t
    ).sync_on(stream)
    return out.unpartition().to_numpy(stream), k_new, v_new


def rel_err(got: Array, want: Array) -> float:
    """Relative Frobenius error."""
    g, r = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return float(np.linalg.norm(g - r) / np.linalg.norm(r))


def check(device: sk.Device, cfg: Config, batch: int, seq: int, max_pos: int, seed: int = 0) -> dict[str, float]:
    """Prefill and decode through the tile API against the float64 reference; returns the relative errors."""
    rng = np.random.default_rng(seed + 1)
    w = random_weights(cfg, seed)
    x = bf16_round(rng.standard_normal((batch * seq, cfg.hidden)))
    errors = {"prefill": rel_err(tile_prefill(device, x, w, cfg, batch), reference_prefill(x, w, cfg, batch))}
    pos = max_pos - 1 - seq % 7
    kv = (max_pos, batch, cfg.kv_heads * K.D)
    k_cache = bf16_round(rng.standard_normal(kv))
    v_cache = bf16_round(rng.standard_normal(kv))
    k_cache[pos:] = 0.0
    v_cache[pos:] = 0.0
    xd = bf16_round(rng.standard_normal((batch, cfg.hidden)))
    got, k_new, v_new = tile_decode(device, xd, w, cfg, k_cache, v_cache, pos)
    want, k_ref, v_ref = reference_decode(xd, w, cfg, k_cache, v_cache, pos)
    errors["decode"] = rel_err(got, want)
    errors["decode, no split-K"] = rel_err(tile_decode(device, xd, w, cfg, k_cache, v_cache, pos, splits=1)[0], want)
    errors["decode k row"] = rel_err(k_new, k_ref)
    errors["decode v row"] = rel_err(v_new, v_ref)
    return errors
