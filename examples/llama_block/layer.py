"""The decoder layer as `torch.nn.Module`s: `TorchDecoderLayer` in plain torch (the reference, what a torch
user writes) and `SafeDecoderLayer`, the same layer on the tile kernels of `kernels.py`, each registered once
with `safekernels.torch.custom_op`, so the module runs eagerly, under `torch.compile(fullgraph=True)` and in
CUDA graphs.  `SafeDecoderLayer.from_torch(ref)` takes the reference's weights (stored K-major, as the GEMMs
read them).

Shapes: prefill `x` is `(batch, seq, hidden)` (causal within each sequence, positions 0..seq-1); a decode step
takes `x` `(batch, hidden)`, the caches and the new token's position `pos`, writes the new K/V rows at `pos`
and attends to positions 0..pos.  The torch layer's caches are `(batch, kv_heads, max_positions, 128)` (SDPA's
layout); the safekernels layer's `(max_positions, batch, kv_heads * 128)` (`kernels.py` says why).
"""

from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

import safekernels.torch as skt

from . import kernels as K
from .numpy_layer import Config

NS = "llama_block"


def _gemm_shape(a: Any, b: Any, *_: Any) -> tuple[int, int]:
    return (a.shape[0], b.shape[1])


def _decode_attention_shape(qk: Any, k_cache: Any, v_cache: Any) -> tuple[int, int]:
    # qk holds H + KVH heads per row; the cache row holds batch * KVH heads
    return (qk.shape[0], qk.shape[1] - k_cache.shape[1] // qk.shape[0])


def _attention_shape(qk: Any, qkv: Any) -> tuple[int, int]:
    # qk: (H + KVH) heads, qkv: (H + 2 KVH) heads, so H = 2 * qk - qkv
    return (qk.shape[0], 2 * qk.shape[1] - qkv.shape[1])


rmsnorm = skt.custom_op(f"{NS}::rmsnorm", K.rmsnorm, outputs={"out": "x"})
add_rmsnorm = skt.custom_op(f"{NS}::add_rmsnorm", K.add_rmsnorm, outputs={"h": "a", "n": "a"})
residual_add = skt.custom_op(f"{NS}::residual_add", K.residual_add, outputs={"c": "a"})
gemm = skt.custom_op(f"{NS}::gemm", K.gemm, outputs={"c": lambda a, b: _gemm_shape(a, b)})
silu_mul = skt.custom_op(f"{NS}::silu_mul", K.silu_mul, outputs={"c": lambda gu: (gu.shape[0], gu.shape[1] // 2)})
dgemm = skt.custom_op(f"{NS}::dgemm", K.dgemm, outputs={"c": lambda a, b: _gemm_shape(a, b)})
dgemm_residual = skt.custom_op(
    f"{NS}::dgemm_residual", K.dgemm_residual, outputs={"c": lambda a, b, r: _gemm_shape(a, b)}
)
dgemm_swiglu = skt.custom_op(
    f"{NS}::dgemm_swiglu", K.dgemm_swiglu, outputs={"c": lambda a, wgu: (a.shape[0], wgu.shape[1] // 2)}
)
dgemm_splitk_ = skt.custom_op(f"{NS}::dgemm_splitk_", K.dgemm_splitk)  # in place: the split count is the caller's
splitk_add_rmsnorm = skt.custom_op(f"{NS}::splitk_add_rmsnorm", K.splitk_add_rmsnorm, outputs={"h": "r", "n": "r"})
splitk_residual = skt.custom_op(f"{NS}::splitk_residual", K.splitk_residual, outputs={"c": "r"})
rope_ = skt.custom_op(f"{NS}::rope_", K.rope)  # in place: its width (H + KVH heads) is the caller's to say
rope_decode_ = skt.custom_op(f"{NS}::rope_decode_", K.rope_decode)
kv_append_ = skt.custom_op(f"{NS}::kv_append_", K.kv_append)  # writes the cache rows at `pos`
attention = skt.custom_op(f"{NS}::attention", K.attention, outputs={"out": _attention_shape})
decode_attention = skt.custom_op(
    f"{NS}::decode_attention", K.decode_attention, outputs={"out": _decode_attention_shape}
)


# -- the reference ----------------------------------------------------------------------------------------------


class TorchDecoderLayer(nn.Module):  # type: ignore[misc]  # torch is untyped here (an optional extra)
    """Llama decoder layer in plain torch (Hugging Face's arithmetic: RMSNorm in f32, rotate-half RoPE in f32,
    SDPA with grouped KV heads, SwiGLU)."""

    def __init__(self, cfg: Config, max_positions: int) -> None:
        super().__init__()
        self.cfg = cfg
        hid, kv = cfg.hidden, cfg.kv_heads * K.D
        self.norm1 = nn.Parameter(torch.ones(hid))
        self.norm2 = nn.Parameter(torch.ones(hid))
        self.q_proj = nn.Linear(hid, hid, bias=False)
        self.k_proj = nn.Linear(hid, kv, bias=False)
        self.v_proj = nn.Linear(hid, kv, bias=False)
        self.o_proj = nn.Linear(hid, hid, bias=False)
        self.gate_proj = nn.Linear(hid, cfg.intermediate, bias=False)
        self.up_proj = nn.Linear(hid, cfg.intermediate, bias=False)
        self.down_proj = nn.Linear(cfg.intermediate, hid, bias=False)
        cos, sin = K.rope_tables(max_positions, cfg.theta)
        self.register_buffer("cos", torch.from_numpy(cos[:, : K.HALF].copy()), persistent=False)
        self.register_buffer("sin", torch.from_numpy(-sin[:, : K.HALF].copy()), persistent=False)

    def _norm(self, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.cfg.eps)
        return w * xf.to(x.dtype)

    def _rope(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        # x (..., heads, seq, 128); cos/sin (seq, 64)
        xf = x.float()
        x1, x2 = xf[..., : K.HALF], xf[..., K.HALF :]
        c, s = torch.cat([cos, cos], -1), torch.cat([sin, sin], -1)
        return (xf * c + torch.cat([-x2, x1], -1) * s).to(x.dtype)

    def _mlp(self, h: torch.Tensor) -> torch.Tensor:
        n = self._norm(h, self.norm2)
        return h + self.down_proj(F.silu(self.gate_proj(n)) * self.up_proj(n))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, hid = x.shape
        cfg = self.cfg
        n = self._norm(x, self.norm1)
        q = self.q_proj(n).view(b, s, cfg.heads, K.D).transpose(1, 2)
        k = self.k_proj(n).view(b, s, cfg.kv_heads, K.D).transpose(1, 2)
        v = self.v_proj(n).view(b, s, cfg.kv_heads, K.D).transpose(1, 2)
        q = self._rope(q, self.cos[:s], self.sin[:s])
        k = self._rope(k, self.cos[:s], self.sin[:s])
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        h = x + self.o_proj(att.transpose(1, 2).reshape(b, s, hid))
        return self._mlp(h)

    def decode(self, x: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor, pos: int) -> torch.Tensor:
        b, hid = x.shape
        cfg = self.cfg
        n = self._norm(x, self.norm1)
        q = self.q_proj(n).view(b, cfg.heads, 1, K.D)
        k = self.k_proj(n).view(b, cfg.kv_heads, 1, K.D)
        v = self.v_proj(n).view(b, cfg.kv_heads, 1, K.D)
        cos, sin = self.cos[pos : pos + 1], self.sin[pos : pos + 1]
        q = self._rope(q, cos, sin)
        k_cache[:, :, pos : pos + 1] = self._rope(k, cos, sin)
        v_cache[:, :, pos : pos + 1] = v
        att = F.scaled_dot_product_attention(q, k_cache[:, :, : pos + 1], v_cache[:, :, : pos + 1], enable_gqa=True)
        h = x + self.o_proj(att.reshape(b, hid))
        return self._mlp(h)


# -- the same layer on tile kernels -----------------------------------------------------------------------------


class SafeDecoderLayer(nn.Module):  # type: ignore[misc]
    """The layer on safekernels tile kernels (ten launches per prefill, ten per decode step).

    `splits`: the decode step's O and down projections run split `splits` ways along K (f32 partials, summed
    by the next kernel with the residual add); 1 runs each as one GEMM with the residual in its epilogue."""

    def __init__(
        self, cfg: Config, max_positions: int, device: Any = None, dtype: Any = torch.bfloat16, splits: int = 2
    ) -> None:
        super().__init__()
        cfg.check()
        self.cfg = cfg
        self.splits = splits
        hid, inter = cfg.hidden, cfg.intermediate

        def weight(*shape: int) -> Any:
            return nn.Parameter(torch.empty(shape, device=device, dtype=dtype), requires_grad=False)

        self.norm1 = weight(hid)
        self.norm2 = weight(hid)
        self.w_qkv = weight(hid, cfg.qkv_width)  # K-major: (in, out)
        self.w_o = weight(hid, hid)
        self.w_gate_up = weight(hid, 2 * inter)  # gate and up columns alternate in blocks of kernels.GU
        self.w_down = weight(inter, hid)
        cos, sin = K.rope_tables(max_positions, cfg.theta)
        self.register_buffer("cos", torch.from_numpy(cos).to(device), persistent=False)
        self.register_buffer("sin", torch.from_numpy(sin).to(device), persistent=False)
        self.scale = 1.0 / math.sqrt(K.D)

    @staticmethod
    def from_torch(ref: TorchDecoderLayer, max_positions: int) -> SafeDecoderLayer:
        """The reference's weights, transposed once to the K-major layout; same device and dtype."""
        w = ref.q_proj.weight
        layer = SafeDecoderLayer(ref.cfg, max_positions, device=w.device, dtype=w.dtype)
        with torch.no_grad():
            layer.norm1.copy_(ref.norm1)
            layer.norm2.copy_(ref.norm2)
            layer.w_qkv.copy_(torch.cat([ref.q_proj.weight, ref.k_proj.weight, ref.v_proj.weight]).t())
            layer.w_o.copy_(ref.o_proj.weight.t())
            k, gu = ref.cfg.hidden, K.GU
            gate = ref.gate_proj.weight.t().reshape(k, -1, gu)
            up = ref.up_proj.weight.t().reshape(k, -1, gu)
            layer.w_gate_up.copy_(torch.stack([gate, up], dim=2).reshape(k, -1))
            layer.w_down.copy_(ref.down_proj.weight.t())
        return layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, hid = x.shape
        cfg = self.cfg
        if s % K.ATT_BM or s > self.cos.shape[0] or hid != cfg.hidden:
            raise ValueError(
                f"SafeDecoderLayer: prefill takes (batch, seq, {cfg.hidden}) with seq a multiple of {K.ATT_BM} "
                f"and at most {self.cos.shape[0]} (the rotary tables' length), got {tuple(x.shape)}"
            )
        t = b * s
        x2 = x.reshape(t, hid)
        n1 = rmsnorm(x2, self.norm1, cfg.eps)
        qkv = gemm(n1, self.w_qkv)
        qk = torch.empty((t, cfg.qk_width), dtype=x.dtype, device=x.device)
        rope_(qk, qkv, self.cos, self.sin, s)
        att = attention(qk, qkv, s, self.scale)
        h, n2 = add_rmsnorm(gemm(att, self.w_o), x2, self.norm2, cfg.eps)
        down = gemm(silu_mul(gemm(n2, self.w_gate_up)), self.w_down)
        return residual_add(down, h).view(b, s, hid)

    def decode(self, x: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor, pos: int) -> torch.Tensor:
        """One token per sequence at position `pos`; caches `(max_positions, batch, kv_heads * 128)`."""
        b = x.shape[0]
        cfg = self.cfg
        if not 0 <= pos < min(k_cache.shape[0], self.cos.shape[0]):
            raise ValueError(
                f"SafeDecoderLayer.decode: position {pos} is outside the cache ({k_cache.shape[0]} positions) "
                f"or the rotary tables ({self.cos.shape[0]})"
            )
        n1 = rmsnorm(x, self.norm1, cfg.eps)
        qkv = dgemm(n1, self.w_qkv)
        qk = torch.empty((b, cfg.qk_width), dtype=x.dtype, device=x.device)
        rope_decode_(qk, qkv, self.cos, self.sin, pos)
        kv_append_(k_cache[pos], v_cache[pos], qk, qkv)
        positions = k_cache.shape[0]
        att = decode_attention(qk, k_cache.view(positions, -1), v_cache.view(positions, -1), pos + 1, self.scale)
        if self.splits == 1:
            h = dgemm_residual(att, self.w_o, x)
            mlp = dgemm_swiglu(rmsnorm(h, self.norm2, cfg.eps), self.w_gate_up)
            return dgemm_residual(mlp, self.w_down, h)
        parts = torch.empty((self.splits, b, cfg.hidden), dtype=torch.float32, device=x.device)
        dgemm_splitk_(parts, att, self.w_o)
        h, n2 = splitk_add_rmsnorm(parts, x, self.norm2, cfg.eps)
        parts = torch.empty((self.splits, b, cfg.hidden), dtype=torch.float32, device=x.device)
        dgemm_splitk_(parts, dgemm_swiglu(n2, self.w_gate_up), self.w_down)
        return splitk_residual(parts, h)


def make_layers(
    cfg: Config, max_positions: int, device: str, seed: int = 0
) -> tuple[TorchDecoderLayer, SafeDecoderLayer]:
    """The reference with random bf16 weights (fixed seed, no downloads) and the safekernels layer on its
    weights."""
    torch.manual_seed(seed)
    with torch.device(device):
        ref = TorchDecoderLayer(cfg, max_positions)
        with torch.no_grad():
            ref.norm1.add_(0.1 * torch.randn(cfg.hidden))
            ref.norm2.add_(0.1 * torch.randn(cfg.hidden))
    ref = ref.to(dtype=torch.bfloat16).requires_grad_(False)
    cos, sin = K.rope_tables(max_positions, cfg.theta)  # f32 tables (`to` made them bf16)
    ref.cos = torch.from_numpy(cos[:, : K.HALF].copy()).to(device)
    ref.sin = torch.from_numpy(-sin[:, : K.HALF].copy()).to(device)
    return ref, SafeDecoderLayer.from_torch(ref, max_positions)


def caches(
    cfg: Config, batch: int, max_positions: int, pos: int, device: str, seed: int = 1
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Random past keys/values at positions < pos, zeros after: (torch k, torch v, safekernels k, safekernels v)
    holding the same values in each layer's layout."""
    g = torch.Generator(device="cpu").manual_seed(seed)
    shape = (max_positions, batch, cfg.kv_heads, K.D)
    k = torch.randn(shape, generator=g).to(torch.bfloat16)
    v = torch.randn(shape, generator=g).to(torch.bfloat16)
    k[pos:] = 0
    v[pos:] = 0
    sk_k = k.reshape(max_positions, batch, -1).to(device).contiguous()
    sk_v = v.reshape(max_positions, batch, -1).to(device).contiguous()
    ref_k = k.permute(1, 2, 0, 3).to(device).contiguous()
    ref_v = v.permute(1, 2, 0, 3).to(device).contiguous()
    return ref_k, ref_v, sk_k, sk_v


def rel_err(got: torch.Tensor, want: torch.Tensor) -> float:
    """Relative Frobenius error, in float64."""
    g, w = got.double(), want.double()
    return float((g - w).norm() / w.norm())
