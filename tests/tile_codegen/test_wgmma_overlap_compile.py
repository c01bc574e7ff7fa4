"""CI without a GPU: the wgmma descriptors are built from values broadcast from lane 0 (`codegen.tile.wgmma.UNIFORM`,
so ptxas keeps them in uniform registers), the key loop's last matmul stays in flight across the back edge
(`codegen.tile.wgmma_sync.CARRY`: the next iteration's first wait lands it), and the two warpgroups take turns
per pair of matmuls (`wgmma_sync.PAIR`).  Checked in the PTX, and in nvJitLink's own report: no wgmma serialized
(C7515 and the like), a wait injected by ptxas only on a trap path."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated, Any

import pytest

from safekernels.codegen.tile import loop_split, wgmma, wgmma_sync
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.kernels import attention_plain as P  # noqa: E402
from bench.kernels import tensor_core_kernels as T  # noqa: E402
from bench.kernels import tile_kernels as K  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.dtypes import bf16, f32, i32  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

F16, BF16, F32, I32 = dtype_of("f16"), dtype_of("bf16"), dtype_of("f32"), dtype_of("i32")


def _waits(ptx: str) -> int:
    """`wgmma.wait_group 0` instructions in the PTX."""
    return len(re.findall(r"wgmma\.wait_group\.sync\.aligned\s+0;", ptx))


def _attention(kernel: Any, d: int = 128) -> Any:
    rows = 2 * 4 * 1024
    spec: list[tuple[str, Any, tuple[int, ...], Any]] = [("partition", BF16, (rows, d), (128, d))]
    spec += [("tensor", BF16, (rows, d), None)] * 3
    spec += [("scalar", I32, (), None), ("scalar", F32, (), None), ("scalar", I32, (), None)]
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    return compile_tile(kernel.fn, params, 1, arch="sm_90a", use_cache=False, fast_math=kernel.fast_math)


def _ptxas_report(ptx: str) -> str:
    from cuda.bindings import nvjitlink

    data = ptx.encode()
    h = nvjitlink.create(3, ["-arch=sm_90a", "-O3", "-verbose"])
    try:
        nvjitlink.add_data(h, nvjitlink.InputType.PTX, data, len(data), "k.ptx")
        nvjitlink.complete(h)
        buf = bytearray(nvjitlink.get_info_log_size(h))
        nvjitlink.get_info_log(h, buf)
        return buf.decode(errors="replace")
    finally:
        nvjitlink.destroy(h)


def _injected_waits_only_on_traps(ptx: str, report: str) -> bool:
    """Every wait ptxas injects (C7517, "around line N") sits at a `trap` block of the PTX."""
    lines = ptx.splitlines()
    for n in re.findall(r"C7517\) wgmma\.wait_group is injected in around line (\d+)", report):
        near = lines[max(0, int(n) - 3) : int(n) + 2]
        if not any("trap" in line for line in near):
            return False
    return True


@pytest.mark.parametrize("d", [128, 64])
def test_descriptors_come_from_lane_zero(monkeypatch: pytest.MonkeyPatch, d: int) -> None:
    c = _attention(P.make_attention_plain(128, 128, d), d)
    # the warpgroup index (Q's descriptor) and the K/V buffer addresses, broadcast before each batch
    assert c.ptx.count("shfl.sync.idx.b32") >= 3 and c.cubin[:4] == b"\x7fELF"
    monkeypatch.setattr(wgmma, "UNIFORM", False)
    assert "shfl.sync.idx.b32" not in _attention(P.make_attention_plain(128, 128, d), d).ptx


def test_gemm_descriptors_come_from_lane_zero() -> None:
    spec = [("partition", F16, (1024, 1024), (K.BM, K.BN))] + [("tensor", F16, (1024, 1024), None)] * 2
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    c = compile_tile(K.gemm_f16.fn, params, 2, arch="sm_90a", use_cache=False)
    assert "shfl.sync.idx.b32" in c.ptx and "wgmma.mma_async" in c.ptx and c.cubin[:4] == b"\x7fELF"


@pytest.mark.parametrize("split", [True, False])
def test_attention_carries_p_v_across_the_back_edge(monkeypatch: pytest.MonkeyPatch, split: bool) -> None:
    monkeypatch.setattr(loop_split, "ENABLED", split)
    bodies = 2 if split else 1
    c = _attention(P.make_attention_plain(128, 128, 128))
    # one wait per lowered body (q @ k^T's, which also lands the previous p @ v) and one after the loop
    assert _waits(c.ptx) == bodies + 1
    report = _ptxas_report(c.ptx)
    assert "serializ" not in report.lower() and _injected_waits_only_on_traps(c.ptx, report), report
    monkeypatch.setattr(wgmma_sync, "CARRY", False)
    assert _waits(_attention(P.make_attention_plain(128, 128, 128)).ptx) == 2 * bodies  # each waited at once


def test_attention_carried_buffers_released_after_the_next_wait() -> None:
    c = _attention(P.make_attention_plain(128, 128, 128))
    body = c.ptx[c.ptx.index("wgmma.mma_async") :]
    # the release (each warp's arrival on `empty`) comes after the first wait of the body, not after p @ v
    wait = re.search(r"wgmma\.wait_group\.sync\.aligned\s+0;", body)
    assert wait is not None and wait.start() < body.index("mbarrier.arrive.shared::cta.b64")


def test_pingpong_turn_covers_the_carried_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    c = _attention(P.make_attention_plain(128, 128, 128))  # the default: split (two bodies), PAIR
    assert _waits(c.ptx) == 3  # p @ v still carried
    # a turn is taken before p @ v and passed after the next q @ k^T; the first one taken before the loop, the
    # last one passed after it; warpgroup 1 hands warpgroup 0 the very first
    assert len(re.findall(r"bar\.sync\s+%r", c.ptx)) == 1 + 2
    assert len(re.findall(r"bar\.arrive\s+%r", c.ptx)) == 1 + 2 + 1
    body = c.ptx[c.ptx.index("wgmma.mma_async") :]
    first_pv = re.search(r"wgmma\.mma_async\S* \{[^}]*\}, \{%r", body)
    assert first_pv is not None and re.search(r"bar\.sync\s+%r", body[: first_pv.start()])
    report = _ptxas_report(c.ptx)
    assert "serializ" not in report.lower() and _injected_waits_only_on_traps(c.ptx, report), report
    monkeypatch.setattr(wgmma_sync, "PAIR", False)
    assert "bar.arrive" not in _attention(P.make_attention_plain(128, 128, 128)).ptx
    monkeypatch.setattr(wgmma_sync, "PAIR", True)
    monkeypatch.setattr(loop_split, "ENABLED", False)  # unsplit: no pair (ptxas would serialize it)
    unsplit = _attention(P.make_attention_plain(128, 128, 128)).ptx
    assert _waits(unsplit) == 2 and "bar.arrive" not in unsplit
    monkeypatch.setattr(wgmma_sync, "PINGPONG", True)  # asked for: a turn per matmul, each waited for at once
    per_matmul = _attention(P.make_attention_plain(128, 128, 128)).ptx
    assert _waits(per_matmul) == 2 and len(re.findall(r"bar\.sync\s+%r", per_matmul)) == 2


def test_no_carry_in_a_pipelined_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop_split, "ENABLED", False)
    pipelined = T.make_attention_pipelined(128, 128, 64)  # the next scores deferred (DEFER): no carry on top
    with_carry = _waits(_attention(pipelined, 64).ptx)
    monkeypatch.setattr(wgmma_sync, "CARRY", False)
    assert with_carry == _waits(_attention(pipelined, 64).ptx)


@tile.kernel(num_warps=8, fast_math=True)
def attention_with_cta_barriers(
    out: Annotated[Partition[bf16], tile.Dims(128, 128)],
    total: Annotated[Partition[f32], tile.Dims(1, 1)],
    q: Tensor[bf16],
    k: Tensor[bf16],
    v: Tensor[bf16],
    seq: i32,
    causal: i32,
) -> None:
    """The plain attention loop with a reduction across warps after `p @ v` (CTA barriers while a turn is held)."""
    i = tile.bid(0)
    qb = i % (seq // 128)
    kv0 = (i // (seq // 128)) * (seq // 128)
    n_kv = causal * (qb + 1) + (1 - causal) * (seq // 128)
    qt = q.load((i, 0), (128, 128))
    rows = tile.reshape(tile.iota(128, i32), (128, 1)) + qb * 128
    cols = tile.reshape(tile.iota(128, i32), (1, 128))
    m = tile.full((128, 1), float("-inf"), f32)
    den = tile.zeros((128, 1), f32)
    acc = tile.zeros((128, 128), f32)
    tot = tile.zeros((1, 1), f32)
    for j in range(n_kv):
        s = tile.matmul(qt, tile.transpose(k.load((kv0 + j, 0), (128, 128))), tile.zeros((128, 128), f32))
        s = tile.where((cols + j * 128 <= rows) | (causal == 0), s, float("-inf"))
        m_new = tile.maximum(m, tile.max(s, axis=1, keepdims=True))
        p = tile.exp(s - m_new)
        alpha = tile.exp(m - m_new)
        den = den * alpha + tile.sum(p, axis=1, keepdims=True)
        acc = tile.matmul(p.astype(bf16), v.load((kv0 + j, 0), (128, 128)), acc * alpha)
        tot = tot + tile.sum(den, axis=0, keepdims=True)
        m = m_new
    out.store((acc * (1.0 / den)).astype(bf16))
    total.store(tot)


def test_pair_hands_the_turn_over_around_cta_barriers() -> None:
    rows = 8192
    spec: list[tuple[str, Any, tuple[int, ...], Any]] = [("partition", BF16, (rows, 128), (128, 128))]
    spec += [("partition", F32, (64, 1), (1, 1))] + [("tensor", BF16, (rows, 128), None)] * 3
    spec += [("scalar", I32, (), None), ("scalar", I32, (), None)]
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    c = compile_tile(attention_with_cta_barriers.fn, params, 1, arch="sm_90a", use_cache=False, fast_math=True)
    assert c.cubin[:4] == b"\x7fELF" and _waits(c.ptx) == 3  # carried, split in two bodies
    lines = [ln.strip() for ln in c.ptx.splitlines() if re.match(r"\s*bar\.", ln) or "wgmma.mma_async" in ln]
    first = next(i for i, ln in enumerate(lines) if "wgmma.mma_async" in ln)
    inner = [i for i, ln in enumerate(lines) if re.match(r"bar\.sync\s+0;", ln) and i > first]
    assert inner  # the reduction's (and the split's) CTA barriers inside the turn-holding stretch
    for i in inner:  # each one: the turn passed just before, taken back just after
        assert lines[i - 1].startswith("bar.arrive %r") and lines[i + 1].startswith("bar.sync %r"), lines[i - 1 : i + 2]
    syncs = sum(1 for ln in lines if ln.startswith("bar.sync %r"))
    arrives = sum(1 for ln in lines if ln.startswith("bar.arrive %r"))
    assert arrives == syncs + 1  # balanced: warpgroup 1's first hand-over has no matching take
