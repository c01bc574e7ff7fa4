"""CI without a GPU: matmuls outside a GEMM main loop take synchronous warpgroup MMA on sm_90a
(`codegen.tile.wgmma_sync`): attention's P operand from registers, K/V double-buffered under one barrier per key
block, Q staged once, the softmax's row reductions as quad shuffles (`codegen.tile.rowreduce`), and f32
division without `div.rn`'s subroutine (which would serialize every wgmma)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated, Any

import pytest

from safekernels import tile
from safekernels.codegen.tile import loop_split, rowreduce, wgmma_sync
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import bf16, dtype_of, f32
from safekernels.tile import Partition, Tensor

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.kernels import tensor_core_kernels as T  # noqa: E402

F32, BF16, I32 = dtype_of("f32"), dtype_of("bf16"), dtype_of("i32")


@tile.kernel
def div_beside_wgmma(
    s: Annotated[Partition[f32], tile.Dims(64, 64)],
    z: Annotated[Partition[f32], tile.Dims(64, 64)],
    q: Tensor[bf16],
    k: Tensor[bf16],
    x: Tensor[f32],
    y: Tensor[f32],
) -> None:
    s.store(tile.matmul(q.load((0, 0), (64, 64)), tile.transpose(k.load((0, 0), (64, 64))), tile.zeros((64, 64), f32)))
    z.store(tile.load_like(x, z) / tile.load_like(y, z))


@pytest.fixture(autouse=True)
def _one_key_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests count the instructions of one key loop: without the split at the mask's all-true range
    (`codegen.tile.loop_split`, tests/tile_codegen/test_loop_split.py), which lowers the body twice."""
    monkeypatch.setattr(loop_split, "ENABLED", False)


def _compile(kernel: Any, spec: list[tuple[str, Any, tuple[int, ...], Any]], arch: str) -> Any:
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    return compile_tile(kernel.fn, params, 1, arch=arch, use_cache=False)


def _attention(arch: str, kernel: Any = None) -> Any:
    rows, d = 4096, T.ATT_D
    spec = [("partition", BF16, (rows, d), (T.ATT_BM, d))] + [("tensor", BF16, (rows, d), None)] * 3
    spec += [("scalar", I32, (), None), ("scalar", F32, (), None), ("scalar", I32, (), None)]
    return _compile(kernel or T.attention, spec, arch)


def _loop_body(ptx: str) -> str:
    """The PTX between the first and the last wgmma (the key loop's body, possibly rotated)."""
    first, last = ptx.index("wgmma.mma_async"), ptx.rindex("wgmma.mma_async")
    return ptx[first:last]


def test_attention_key_loop_has_wgmma_and_few_barriers() -> None:
    c = _attention("sm_90a")
    assert c.cubin[:4] == b"\x7fELF"
    assert c.ptx.count("wgmma.mma_async") == T.ATT_D // 16 + T.ATT_BN // 16
    assert re.search(r"wgmma\.mma_async\S* \{[^}]*\}, \{%r\d+, %r\d+, %r\d+, %r\d+\}, %rd", c.ptx)  # A in registers
    body = _loop_body(c.ptx)
    assert "cp.async.cg.shared.global" in c.ptx and "cp.async.wait_group" in c.ptx
    # S, P, the row max / sum and the rescale stay in registers (quad shuffles, codegen.tile.rowreduce)
    assert "st.shared" not in body and "ld.shared" not in body and "shfl.sync.bfly" in body
    # K and V by the copy engine into two buffers: the last warpgroup's first thread refills one when every warp
    # has released it; no CTA barrier in the loop (24 per key block before), one before it
    assert not re.search(r"bar\.sync\s+0;", body) and len(re.findall(r"bar\.sync\s+0;", c.ptx)) == 1
    boxes = 2 * (T.ATT_D * 2 // 128)  # K and V: one box per 128-byte column block
    assert c.ptx.count("cp.async.bulk.tensor.2d") == 3 * boxes  # two iterations before the loop, a refill in it
    assert c.ptx.count("mbarrier.try_wait.parity") == 2  # full (every thread), empty (thread 0 before a refill)
    assert sum(1 for e in c.abi if e[0].startswith("tmap:")) == 2  # tensor maps of K and V


def test_attention_without_tma_has_one_barrier_per_key_block(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wgmma_sync, "TMA", False)
    c = _attention("sm_90a")
    body = _loop_body(c.ptx)
    assert "cp.async.bulk" not in c.ptx and "cp.async.cg.shared.global" in c.ptx
    assert c.ptx.count("bar.sync") == 1 and "st.shared" not in body  # the K/V pipeline's one per key block
    assert "ld.local" not in c.ptx and "st.local" not in c.ptx


def test_disabled_falls_back_to_mma_sync(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wgmma_sync, "ENABLED", False)
    c = _attention("sm_90a", T.attention_64)  # 128-key blocks would not fit mma.sync's shared-memory staging
    assert "mma.sync.aligned.m16n8k16" in c.ptx and "wgmma" not in c.ptx


def test_row_reductions_in_registers_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rowreduce, "ENABLED", False)
    c = _attention("sm_90a", T.attention_64)
    assert "wgmma.mma_async" in c.ptx and c.ptx.count("bar.sync") > 4  # reductions through shared memory


def test_division_beside_wgmma_has_no_subroutine() -> None:
    spec = [("partition", F32, (64, 64), (64, 64))] * 2 + [("tensor", BF16, (64, 64), None)] * 2
    spec += [("tensor", F32, (64, 64), None)] * 2
    c = _compile(div_beside_wgmma, spec, "sm_90a")
    assert c.cubin[:4] == b"\x7fELF" and c.arch == "sm_90a"
    assert "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" in c.ptx
    assert "div.rn.f32" not in c.ptx and "rcp.approx.ftz.f64" in c.ptx
    plain = _compile(div_beside_wgmma, spec, "sm_90")  # no wgmma: the ordinary IEEE division
    assert "div.rn.f32" in plain.ptx


def test_attention_with_pingpong_takes_turns_at_the_tensor_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wgmma_sync, "PINGPONG", True)  # off by default (measured slower, wgmma_sync.PINGPONG)
    c = _attention("sm_90a")
    body = _loop_body(c.ptx)
    # the two warpgroups take turns issuing their wgmma (named barriers 2 and 3, 256 threads each)
    assert c.ptx.count("bar.sync %r") == 2 and "bar.sync %r" in body  # one per matmul: a turn to issue
    assert c.ptx.count("bar.arrive %r") == 3  # one per matmul, and warpgroup 1 gives warpgroup 0 the first turn
    assert len(re.findall(r"bar\.sync\s+0;", c.ptx)) == 1 and c.cubin[:4] == b"\x7fELF"


def test_attention_by_default_has_no_turn_barriers() -> None:
    c = _attention("sm_90a")
    assert "bar.arrive" not in c.ptx and c.ptx.count("bar.sync") == 1
