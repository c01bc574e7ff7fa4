"""CI without a GPU: which kernels get the persistent grid (codegen.tile.persistent) and the epilogue by TMA store
(codegen.tile.tma_store), what their PTX does, that ptxas keeps their wgmma asynchronous, and that the launcher
caps their CTAs at one per SM."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Any

import pytest

from safekernels import tile
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of, f16, f32
from safekernels.tile import Partition, Tensor

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.kernels import tensor_core_kernels as T  # noqa: E402
from bench.kernels import tile_kernels as K  # noqa: E402

F16, BF16, F32 = dtype_of("f16"), dtype_of("bf16"), dtype_of("f32")
LOADS = "cp.async.bulk.tensor.2d.shared::cluster.global"  # a TMA load (a store reads `.global.shared::cta`)


def _compile(kernel: Any, spec: list[tuple[str, Any, tuple[int, ...], Any]], arch: str = "sm_90a") -> Any:
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    return compile_tile(kernel.fn, params, 2, arch=arch, use_cache=False)


def _gemm(n: int, arch: str = "sm_90a", kernel: Any = K.gemm_f16, dt: Any = F16) -> Any:
    return _compile(kernel, [("partition", dt, (n, n), (K.BM, K.BN))] + [("tensor", dt, (n, n), None)] * 2, arch)


@pytest.mark.parametrize("n", [4096, 4000])
def test_the_tma_gemm_is_persistent(n: int) -> None:
    c = _gemm(n)
    assert c.persistent and "%nctaid.x" in c.ptx
    # the barriers are initialized once per CTA: one init per stage, under the first-tile test
    assert c.ptx.count("mbarrier.init.shared::cta.b64") == 4
    # prologue (2 stages) + refill + the next tile's prologue, 1 + BN / 64 boxes each
    assert c.ptx.count(LOADS) == 5 * (1 + K.BN // 64)


def test_ptxas_keeps_the_wgmma_asynchronous_and_spills_nothing() -> None:
    from safekernels.codegen.sass_summary import ptxas_report

    c = _gemm(4096)
    report = ptxas_report(c.ptx, "sm_90a", c.name)
    assert "serialized" not in report.raw, report.raw  # e.g. a 64-bit division's subroutine call (C7509)
    assert report.spill_store_bytes == 0 and report.registers is not None and report.registers <= 232


def test_tile_ids_are_decoded_in_32_bits() -> None:
    """A 64-bit division is a subroutine call in SASS, and any call serializes every wgmma of the kernel."""
    c = _gemm(4096)
    assert not re.search(r"\b(div|rem)\.[us]64\b", c.ptx)


def test_switched_off_it_is_one_cta_per_tile(monkeypatch: pytest.MonkeyPatch) -> None:
    from safekernels.codegen.tile import persistent

    monkeypatch.setattr(persistent, "ENABLED", False)
    c = _gemm(4096)
    assert not c.persistent and "%nctaid.x" not in c.ptx
    assert c.ptx.count(LOADS) == 3 * (1 + K.BN // 64)


def test_the_fused_epilogue_stays_in_the_tile_loop() -> None:
    n = 2048
    spec = [
        ("partition", F16, (n, n), (K.BM, K.BN)),
        ("tensor", F16, (n, n), None),
        ("tensor", F16, (n, n), None),
        ("tensor", F32, (n,), None),
    ]
    c = _compile(K.gemm_bias_relu, spec)
    assert c.persistent and c.ptx.count(LOADS) == 5 * (1 + K.BN // 64)
    assert "max.f32" in c.ptx or "max.NaN.f32" in c.ptx  # the ReLU of the tail, as written


def test_sm_90_attention_and_warp_specialized_kernels_are_not_persistent(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not _gemm(1024, "sm_90").persistent  # no TMA off sm_90a
    spec = [("partition", BF16, (4096, 128), (T.ATT_BM, 128))] + [("tensor", BF16, (4096, 128), None)] * 3
    spec += [("scalar", dtype_of("i32"), (), None), ("scalar", F32, (), None), ("scalar", dtype_of("i32"), (), None)]
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    att = compile_tile(T.attention.fn, params, 1, arch="sm_90a", use_cache=False)
    assert not att.persistent
    from safekernels.codegen.tile import warpspec

    monkeypatch.setattr(warpspec, "ENABLED", True)
    assert not _gemm(1024).persistent


BM, BN, BK = 128, 256, 64


@tile.kernel
def gemm_scaled_rows(
    c: Annotated[Partition[f16], tile.Dims(BM, BN)], a: Tensor[f16], b: Tensor[f16], s: Tensor[f32]
) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    row_scale = s.load((i,), (BM,))  # a load before the main loop: not pure, so one CTA per tile
    a_tiles = a.partition((BM, BK))
    b_tiles = b.partition((BK, BN))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store((acc * tile.reshape(row_scale, (BM, 1))).astype(f16))


def test_a_load_before_the_main_loop_keeps_one_cta_per_tile() -> None:
    n = 1024
    spec = [
        ("partition", F16, (n, n), (BM, BN)),
        ("tensor", F16, (n, n), None),
        ("tensor", F16, (n, n), None),
        ("tensor", F32, (n,), None),
    ]
    c = _compile(gemm_scaled_rows, spec)
    assert "cp.async.bulk.tensor" in c.ptx and not c.persistent


class _FakeBackend:
    def __init__(self, sms: int) -> None:
        self.sms = sms

    def load_module(self, image: bytes) -> object:
        return object()

    def get_function(self, module: object, name: str) -> object:
        return object()

    def attribute(self, name: str) -> int:
        assert name == "MULTIPROCESSOR_COUNT"
        return self.sms


def _loaded(persistent: bool, sms: int = 132) -> Any:
    from safekernels.tile.gpu_launch import TileGpuKernel

    compiled = SimpleNamespace(name="k", cubin=b"", smem_bytes=0, persistent=persistent, asserts=[])
    return TileGpuKernel(compiled, _FakeBackend(sms))


def test_the_launcher_runs_one_cta_per_sm_for_a_persistent_kernel() -> None:
    loaded = _loaded(True)
    assert loaded.blocks((32, 16)) == 132 and loaded.blocks((2, 3)) == 6 and loaded.blocks((0, 4)) == 0
    assert loaded.blocks((1 << 16, 1 << 15)) == 1 << 31  # past CUDA's grid limit: the driver's error, as before
    assert _loaded(False).blocks((32, 16)) == 512


STORES = "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"


def test_the_epilogue_goes_through_shared_memory_and_the_copy_engine() -> None:
    c = _gemm(4000)  # ragged: the copy engine clips the boxes past the edge
    assert ("tmap:64:64", 0, 0) in c.abi  # the output's tensor map
    assert c.ptx.count(STORES) == 2 * K.BN // 64 and "cp.async.bulk.commit_group" in c.ptx
    assert c.ptx.count("st.shared.v2.b16") == K.BM * K.BN // 2 // c.threads  # two elements per store
    assert "st.global" not in c.ptx  # nothing stored from registers
    # the stage a store reads is not refilled before the store has read it, nor left when the CTA ends
    assert c.ptx.count("cp.async.bulk.wait_group.read 0") >= 2
    assert "fence.proxy.async.shared::cta" in c.ptx


def test_store_switched_off_stores_from_registers(monkeypatch: pytest.MonkeyPatch) -> None:
    from safekernels.codegen.tile import tma_store

    monkeypatch.setattr(tma_store, "ENABLED", False)
    c = _gemm(4096)
    assert STORES not in c.ptx and "st.global" in c.ptx and ("tmap:64:64", 0, 0) not in c.abi


@tile.kernel
def gemm_f32_out(c: Annotated[Partition[f32], tile.Dims(BM, BN)], a: Tensor[f16], b: Tensor[f16]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((BM, BK))
    b_tiles = b.partition((BK, BN))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(acc)


def test_an_f32_output_is_stored_from_registers() -> None:
    n = 1024
    spec = [("partition", F32, (n, n), (BM, BN)), ("tensor", F16, (n, n), None), ("tensor", F16, (n, n), None)]
    c = _compile(gemm_f32_out, spec)
    assert c.persistent and STORES not in c.ptx and "st.global" in c.ptx
