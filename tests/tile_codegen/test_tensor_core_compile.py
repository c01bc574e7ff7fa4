"""CI without a GPU: the tensor-core kernels (fp8 GEMM, flash attention, matmul against a transposed operand)
compile to PTX that nvJitLink assembles for sm_90a / sm_90, with the instructions the compiler means to use,
and the attention example matches a float64 numpy reference on the CPU executor."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import tile
from safekernels.codegen.tile import loop_split
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of, f8e4m3, f16, f32

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))

import attention_tile  # noqa: E402

from bench.kernels import tensor_core_kernels as T  # noqa: E402

F32, F16, BF16, I32 = dtype_of("f32"), dtype_of("f16"), dtype_of("bf16"), dtype_of("i32")
F8 = dtype_of("f8e4m3")
SCALAR = ("scalar", None, (), None)
LOADS = "cp.async.bulk.tensor.2d.shared::cluster.global"  # a TMA load (a store reads `.global.shared::cta`)


def _compile(kernel: Any, spec: list[tuple[str, Any, tuple[int, ...], Any]], grid: int, arch: str) -> Any:
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    return compile_tile(kernel.fn, params, grid, arch=arch, use_cache=False)


def _fp8_gemm(n: int, arch: str = "sm_90a") -> Any:
    spec = [
        ("partition", BF16, (n, n), (T.F8_BM, T.F8_BN)),
        ("tensor", F8, (n, n), None),
        ("tensor", F8, (n, n), None),
        ("scalar", F32, (), None),
        ("scalar", F32, (), None),
    ]
    return _compile(T.gemm_fp8, spec, 2, arch)


def _attention(kernel: Any, rows: int, bm: int, d: int, arch: str) -> Any:
    spec = [("partition", BF16, (rows, d), (bm, d))] + [("tensor", BF16, (rows, d), None)] * 3
    spec += [("scalar", I32, (), None), ("scalar", F32, (), None), ("scalar", I32, (), None)]
    return _compile(kernel, spec, 1, arch)


def test_fp8_gemm_runs_on_qgmma_warpgroup_mma() -> None:
    c = _fp8_gemm(1024)
    assert c.arch == "sm_90a" and c.cubin[:4] == b"\x7fELF"
    assert f"wgmma.mma_async.sync.aligned.m64n{T.F8_BN}k32.f32.e4m3.e4m3" in c.ptx
    assert c.ptx.count("wgmma.mma_async") == T.F8_BK // 32  # one k32 instruction per 32 bytes of K
    assert "cp.async.bulk.tensor.2d" in c.ptx and "mma.sync" not in c.ptx
    assert c.threads == 128 * (T.F8_BM // 64)
    assert c.smem_bytes >= 3 * (T.F8_BM + T.F8_BN) * T.F8_BK  # at least three 1-byte stages


def test_fp8_matmul_outside_the_warpgroup_path_is_a_located_error() -> None:
    from ownership_check.diagnostics import DiagnosticError

    with pytest.raises(DiagnosticError, match="sm_90a warpgroup MMA only"):
        _fp8_gemm(1024, "sm_90")


@tile.kernel
def fp8_roundtrip(out: tile.Partition[f8e4m3], x: tile.Tensor[f8e4m3]) -> None:
    t = tile.load_like(x, out).astype(f32)
    out.store((t * 2.0).astype(f8e4m3))


def test_fp8_values_in_registers_convert_through_f16x2() -> None:
    spec = [("partition", F8, (1000,), (256,)), ("tensor", F8, (1000,), None)]
    c = _compile(fp8_roundtrip, spec, 1, "sm_90")
    assert "cvt.rn.f16x2.e4m3x2" in c.ptx and "cvt.rn.satfinite.e4m3x2.f32" in c.ptx
    assert c.cubin[:4] == b"\x7fELF"


BM, BN, BK = 128, 128, 64


@tile.kernel
def gemm_nt(
    c: Annotated[tile.Partition[f32], tile.Dims(BM, BN)], a: tile.Tensor[f16], bt: tile.Tensor[f16]
) -> None:
    a_tiles = a.partition((BM, BK))
    b_tiles = bt.partition((BN, BK))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((tile.bid(0), k)), tile.transpose(b_tiles.load((tile.bid(1), k))), acc)
    c.store(acc)


def _gemm_nt(arch: str, n: int = 1024) -> Any:
    spec = [("partition", F32, (n, n), (BM, BN)), ("tensor", F16, (n, n), None), ("tensor", F16, (n, n), None)]
    return _compile(gemm_nt, spec, 2, arch)


def test_transposed_operand_is_read_k_major_by_wgmma() -> None:
    c = _gemm_nt("sm_90a")
    assert c.arch == "sm_90a" and f"wgmma.mma_async.sync.aligned.m64n{BN}k16.f32.f16.f16" in c.ptx
    assert "p, 1, 1, 0, 0;" in c.ptx and "p, 1, 1, 0, 1;" not in c.ptx  # imm-trans-b = 0
    assert "cp.async.bulk.tensor.2d" in c.ptx


def test_transposed_operand_is_read_without_trans_by_mma_sync() -> None:
    c = _gemm_nt("sm_90")
    assert "mma.sync.aligned.m16n8k16" in c.ptx and "cp.async.cg.shared.global" in c.ptx
    assert "ldmatrix.sync.aligned.m8n8.x4.trans" not in c.ptx and "ldmatrix.sync.aligned.m8n8.x4.shared" in c.ptx


def test_transposed_operand_of_a_ragged_tensor_goes_through_registers() -> None:
    c = _gemm_nt("sm_90", 1001)  # rows of 1001 f16 are not 16-byte aligned: no cp.async, a real transpose
    assert "cp.async" not in c.ptx and "ldmatrix.sync.aligned.m8n8.x4.trans" in c.ptx


@pytest.mark.parametrize("arch", ["sm_90", "sm_90a"])
def test_attention_kernels_assemble(arch: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop_split, "ENABLED", False)  # one key loop body (the split lowers it twice)
    if arch == "sm_90" and T.ATT_BN > 64:  # 128-key blocks: the mma.sync fallback's staging does not fit
        test_bench_attention_with_128_key_blocks_is_refused_for_sm_90_naming_sm_90a()
        c = _attention(T.attention_64, 4096, T.ATT_BM, T.ATT_D, arch)
    else:
        c = _attention(T.attention, 4096, T.ATT_BM, T.ATT_D, arch)
    assert c.cubin[:4] == b"\x7fELF" and "cp.async.cg.shared.global" in c.ptx  # K (read transposed) and V
    if arch == "sm_90a":  # both matmuls on warpgroup MMA (codegen.tile.wgmma_sync), P as a register A operand
        assert "mma.sync" not in c.ptx and "div.rn" not in c.ptx and "rcp.rn" not in c.ptx
        count = {T.ATT_BN: T.ATT_D // 16}  # q @ k^T: n = keys per block, one k16 step per 16 of the head dim
        count[T.ATT_D] = count.get(T.ATT_D, 0) + T.ATT_BN // 16  # p @ v: n = head dim, k = keys per block
        for n, times in count.items():
            assert c.ptx.count(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.bf16.bf16") == times
        assert "}, {%r" in c.ptx  # the P @ V instruction reads A from registers
    else:
        assert "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" in c.ptx
    assert "ex2.approx" in c.ptx
    ex = _attention(attention_tile.attention, 512, attention_tile.BM, attention_tile.D, arch)
    assert ex.cubin[:4] == b"\x7fELF"


def test_bench_attention_with_128_key_blocks_is_refused_for_sm_90_naming_sm_90a() -> None:
    from ownership_check.diagnostics import DiagnosticError

    spec = [("partition", BF16, (4096, T.ATT_D), (T.ATT_BM, T.ATT_D))] + [("tensor", BF16, (4096, T.ATT_D), None)] * 3
    spec += [("scalar", I32, (), None), ("scalar", F32, (), None), ("scalar", I32, (), None)]
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    warps = T.attention.num_warps  # as a launch and the parity corpus compile it
    with pytest.raises(DiagnosticError, match=r"shared memory .*on sm_90a \(warpgroup MMA\) it needs \d+ bytes"):
        compile_tile(T.attention.fn, params, 1, arch="sm_90", num_warps=warps, use_cache=False)
    c = compile_tile(T.attention.fn, params, 1, arch="sm_90a", num_warps=warps, use_cache=False)
    assert c.smem_bytes <= 227 * 1024 and c.cubin[:4] == b"\x7fELF"


def test_a_kernel_too_big_on_every_target_is_refused_without_naming_sm_90a(monkeypatch: pytest.MonkeyPatch) -> None:
    from ownership_check.diagnostics import DiagnosticError
    from safekernels.codegen.tile import wgmma_sync

    monkeypatch.setattr(wgmma_sync, "ENABLED", False)  # sm_90a then stages like sm_90: 297 KB on both
    spec = [("partition", BF16, (4096, T.ATT_D), (T.ATT_BM, T.ATT_D))] + [("tensor", BF16, (4096, T.ATT_D), None)] * 3
    spec += [("scalar", I32, (), None), ("scalar", F32, (), None), ("scalar", I32, (), None)]
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    with pytest.raises(DiagnosticError, match=r"SK004 the kernel needs \d+ bytes of shared memory") as exc:
        compile_tile(T.attention.fn, params, 1, arch="sm_90", num_warps=T.attention.num_warps, use_cache=False)
    assert "sm_90a" not in str(exc.value) and str(exc.value).endswith("use smaller tiles")


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize(("heads", "seq"), [(1, 64), (2, 128), (3, 192)])
def test_attention_example_on_the_cpu_executor(heads: int, seq: int, causal: bool) -> None:
    got, want = attention_tile.run(sk.Device.cpu(), heads, seq, causal, seed=heads + seq)
    assert got.shape == (heads * seq, attention_tile.D)
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)


def test_attention_causal_first_row_is_its_own_value() -> None:
    got, _ = attention_tile.run(sk.Device.cpu(), 1, 64, True, seed=3)
    rng = np.random.default_rng(3)
    q, k, v = (sk.dtypes.bf16_to_f32(sk.dtypes.f32_to_bf16(rng.standard_normal((64, 64)))) for _ in "qkv")
    _ = q, k
    np.testing.assert_allclose(got[0], v[0], rtol=1e-2, atol=1e-2)  # query 0 sees key 0 only


def test_attention_refuses_a_ragged_sequence() -> None:
    with pytest.raises(ValueError, match="multiple of"):
        attention_tile.run(sk.Device.cpu(), 1, 100, False)


def test_attention_example_main_prints_passed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAFEKERNELS_DEVICE", "cpu")
    attention_tile.main()
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "PASSED" and out[-2].startswith("attention_tile")


_ = SCALAR


# -- the copy-engine (TMA) operand path of the Hopper GEMM -------------------------------------------------------


def _gemm(name: str, n: int, arch: str = "sm_90a") -> Any:
    from bench.kernels import tile_kernels as K

    kern = {"gemm_f16": K.gemm_f16, "gemm_bf16": K.gemm_bf16}[name]
    dt = F16 if name == "gemm_f16" else BF16
    spec = [("partition", dt, (n, n), (K.BM, K.BN)), ("tensor", dt, (n, n), None), ("tensor", dt, (n, n), None)]
    return _compile(kern, spec, 2, arch)


def test_gemm_operands_come_by_tma_with_by_value_tensor_maps() -> None:
    from bench.kernels import tile_kernels as K

    c = _gemm("gemm_f16", 4000)  # ragged M, N, K: the copy engine zero-fills out-of-bounds boxes
    assert c.arch == "sm_90a" and c.cubin[:4] == b"\x7fELF"
    tmaps = [a for a in c.abi if a[0].startswith("tmap:")]
    # A: boxes of 64 f16 (128 bytes) x BM rows; B (MN-major): 64 columns x BK rows, BN / 64 boxes per stage;
    # C: the epilogue's TMA store, 64 x 64 boxes (codegen.tile.tma_store)
    assert tmaps == [(f"tmap:{K.BM}:64", 1, 0), (f"tmap:{K.BK}:64", 2, 0), ("tmap:64:64", 0, 0)]
    assert c.abi[-3:] == tmaps  # after the grid extents
    assert c.ptx.count(".param .align 64 .b8") == 3 and "cvta.param.u64" in c.ptx  # __grid_constant__ maps
    assert "cp.async.bulk.tensor.2d" in c.ptx and "cp.async.cg" not in c.ptx
    # prologue (2 stages) + refill + the next tile's prologue (a persistent CTA, codegen.tile.persistent)
    assert c.ptx.count(LOADS) == 5 * (1 + K.BN // 64)
    assert c.ptx.count("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group") == 2 * K.BN // 64  # the store
    assert "mbarrier.init.shared::cta.b64" in c.ptx and "fence.mbarrier_init" in c.ptx
    assert "mbarrier.arrive.expect_tx.shared::cta.b64 _, [" in c.ptx
    stage = (K.BM * K.BK + K.BK * K.BN) * 2
    assert f"], {stage};" in c.ptx  # the transaction bytes of one stage


def test_fp8_tma_boxes_are_128_bytes_of_k() -> None:
    c = _fp8_gemm(1024)
    assert [a for a in c.abi if a[0].startswith("tmap:")] == [
        (f"tmap:{T.F8_BM}:128", 1, 0),
        (f"tmap:{T.F8_BN}:128", 2, 0),
        ("tmap:64:64", 0, 0),  # the bf16 output's TMA store
    ]


def test_cp_async_wgmma_path_remains_as_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    from safekernels.codegen.tile import tma

    monkeypatch.setattr(tma, "ENABLED", False)
    c = _gemm("gemm_bf16", 1024)
    assert "wgmma.mma_async" in c.ptx and "cp.async.cg.shared.global" in c.ptx
    assert "cp.async.bulk" not in c.ptx and "fence.proxy.async.shared::cta" in c.ptx
    assert not any(a[0].startswith("tmap:") for a in c.abi)


def test_sm_90_gemm_has_no_tensor_maps() -> None:
    c = _gemm("gemm_f16", 1024, "sm_90")
    assert "cp.async.bulk" not in c.ptx and not any(a[0].startswith("tmap:") for a in c.abi)


def test_sass_summary_names_the_hopper_instructions() -> None:
    from safekernels.codegen.sass_summary import classify

    assert classify("QGMMA.64x256x32.F32.E4M3.E4M3") == "QGMMA"
    assert classify("UTMALDG.2D") == "UTMALDG" and classify("HGMMA.64x256x16.F32") == "HGMMA"
    assert classify("LDGSTS.E.BYPASS.LTC128B.128") == "LDGSTS"


@pytest.fixture
def warp_specialized(monkeypatch: pytest.MonkeyPatch) -> None:
    from safekernels.codegen.tile import warpspec

    monkeypatch.setattr(warpspec, "ENABLED", True)  # off by default (measured slower, docs/tile-compiler.md)


@pytest.mark.usefixtures("warp_specialized")
def test_gemm_loop_is_warp_specialized() -> None:
    import re

    from bench.kernels import tile_kernels as K

    c = _gemm("gemm_bf16", 4096)
    ptx = c.ptx
    assert c.threads == 128 * (K.BM // 64) + 128 and ".maxntid 384" in ptx and ".minnctapersm 1" in ptx
    assert "setmaxnreg.dec.sync.aligned.u32 40;" in ptx and "setmaxnreg.inc.sync.aligned.u32 232;" in ptx
    assert ptx.index("setmaxnreg.dec") < ptx.index("cp.async.bulk.tensor")  # the producer issues the copies
    # the consumers release stages on the `empty` barriers (two warpgroups arrive per phase) ...
    assert "mbarrier.arrive.shared::cta.b64 _, [" in ptx and "mbarrier.init.shared::cta.b64 [%r" in ptx
    assert re.search(r"mbarrier.init.shared::cta.b64 \[%r\d+\], 2;", ptx)
    # ... and meet at no CTA barrier after the fork: one `bar.sync 0` before it, nothing in the main loop
    assert len(re.findall(r"bar.sync\s+0;", ptx)) == 1 and ptx.index("bar.sync") < ptx.index("setmaxnreg.dec")
    assert "bar.sync 1, 256" not in ptx  # the plain GEMM's epilogue stores from registers


@pytest.mark.usefixtures("warp_specialized")
def test_epilogue_barriers_after_the_fork_count_only_the_consumers() -> None:
    from bench.kernels import tile_kernels as K

    n = 1024
    spec = [
        ("partition", F16, (n, n), (K.BM, K.BN)),
        ("tensor", F16, (n, n), None),
        ("tensor", F16, (n, n), None),
        ("tensor", F32, (n,), None),
    ]
    c = _compile(K.gemm_bias_relu, spec, 2, "sm_90a")
    assert "setmaxnreg.inc" in c.ptx and "bar.sync 1, 256;" in c.ptx
    assert c.ptx.index("setmaxnreg.inc") < c.ptx.index("bar.sync 1, 256;")


def test_by_default_thread_0_issues_the_copies() -> None:
    from bench.kernels import tile_kernels as K

    c = _gemm("gemm_f16", 1024)
    assert c.threads == 128 * (K.BM // 64) and "setmaxnreg" not in c.ptx and "cp.async.bulk.tensor" in c.ptx
    assert c.ptx.count(LOADS) == 5 * (1 + K.BN // 64)  # + the next tile's prologue


@pytest.mark.usefixtures("warp_specialized")
def test_a_load_before_the_loop_keeps_the_cta_together() -> None:
    c = _attention(T.attention, 4096, T.ATT_BM, T.ATT_D, "sm_90a")
    assert "setmaxnreg" not in c.ptx and c.threads == 256


def test_sass_summary_of_a_wgmma_kernel_reads_the_sm_90a_ptxas_report(tmp_path: Path) -> None:
    from safekernels.codegen.build_cli import main

    out = tmp_path / "out"
    source = str(ROOT / "bench/kernels/tensor_core_kernels.py")
    assert main([source, "--emit", "sass-summary", "-o", str(out), "-q"]) == 0
    text = (out / "gemm_fp8.sass-summary.txt").read_text()
    assert "gemm_fp8 (sm_90a)" in text and "spills            0 bytes stored" in text
    assert "ptxas report" not in text  # the report came: nvJitLink was asked for the arch the PTX targets


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("name", ["attention", "attention_pipelined"])
def test_bench_attention_head_dim_128_on_the_cpu_executor(causal: bool, name: str) -> None:
    from safekernels.dtypes import bf16, bf16_to_f32, f32_to_bf16

    heads, seq, d = 2, 256, T.ATT_D
    rng = np.random.default_rng(7)
    q, k, v = (bf16_to_f32(f32_to_bf16(rng.standard_normal((heads * seq, d)))) for _ in "qkv")
    stream = sk.Device.cpu().new_stream()
    out = tile.zeros((heads * seq, d), bf16).partition((T.ATT_BM, d))
    args = [tile.from_numpy(x, dtype=bf16) for x in (q, k, v)]
    out, *_ = getattr(T, name)(out, *args, seq, 1.0 / np.sqrt(d), int(causal)).sync_on(stream)
    got = out.unpartition().to_numpy(stream).reshape(heads * seq, d)
    np.testing.assert_allclose(got, attention_tile.reference(q, k, v, heads, causal), rtol=2e-2, atol=2e-2)
