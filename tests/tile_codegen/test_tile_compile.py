"""CI without a GPU: every tile kernel (examples and bench kernels) compiles to PTX that nvJitLink
assembles for
sm_80 and sm_90, in its aligned (16-byte vector) and ragged specializations, and the PTX uses the instructions
the compiler means to use."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))

import add_tile  # noqa: E402
import matmul_tile  # noqa: E402
import softmax_tile  # noqa: E402

from bench.kernels import tile_kernels as K  # noqa: E402

F32, F16, BF16 = dtype_of("f32"), dtype_of("f16"), dtype_of("bf16")


def _specs(m: int, n: int) -> dict[str, tuple[Any, list[tuple[str, Any, tuple[int, ...], Any]], int]]:
    return {
        "add": (
            add_tile.add,
            [
                ("partition", F32, (m,), (add_tile.TILE,)),
                ("tensor", F32, (m,), None),
                ("tensor", F32, (m,), None),
            ],
            1,
        ),
        "softmax_example": (
            softmax_tile.softmax,
            [("partition", F32, (m, n), (softmax_tile.BM, softmax_tile.BN)), ("tensor", F32, (m, n), None)],
            2,
        ),
        "matmul_example": (
            matmul_tile.matmul,
            [
                ("partition", F32, (m, n), (64, 64)),
                ("tensor", F16, (m, n), None),
                ("tensor", F16, (n, n), None),
            ],
            2,
        ),
        "vecadd": (
            K.vecadd,
            [
                ("partition", F32, (m,), (K.VEC_TILE,)),
                ("tensor", F32, (m,), None),
                ("tensor", F32, (m,), None),
            ],
            1,
        ),
        "saxpy": (
            K.saxpy,
            [
                ("partition", F32, (m,), (K.VEC_TILE,)),
                ("scalar", F32, (), None),
                ("tensor", F32, (m,), None),
                ("tensor", F32, (m,), None),
            ],
            1,
        ),
        "softmax": (K.softmax, [("partition", F32, (m, n), (1, K.ROW)), ("tensor", F32, (m, n), None)], 2),
        "layernorm": (
            K.layernorm,
            [
                ("partition", F32, (m, n), (1, K.ROW)),
                ("tensor", F32, (m, n), None),
                ("tensor", F32, (n,), None),
                ("tensor", F32, (n,), None),
                ("scalar", F32, (), None),
            ],
            2,
        ),
        "row_sum": (K.row_sum, [("partition", F32, (m,), (K.RED_ROWS,)), ("tensor", F32, (m, n), None)], 1),
        "row_max": (K.row_max, [("partition", F32, (m,), (K.RED_ROWS,)), ("tensor", F32, (m, n), None)], 1),
        "transpose": (
            K.transpose,
            [("partition", F32, (n, m), (K.T_TILE, K.T_TILE)), ("tensor", F32, (m, n), None)],
            2,
        ),
        "gemm_f16": (
            K.gemm_f16,
            [
                ("partition", F16, (m, n), (K.BM, K.BN)),
                ("tensor", F16, (m, n), None),
                ("tensor", F16, (n, n), None),
            ],
            2,
        ),
        "gemm_bf16": (
            K.gemm_bf16,
            [
                ("partition", BF16, (m, n), (K.BM, K.BN)),
                ("tensor", BF16, (m, n), None),
                ("tensor", BF16, (n, n), None),
            ],
            2,
        ),
        "gemm_bias_relu": (
            K.gemm_bias_relu,
            [
                ("partition", F16, (m, n), (K.BM, K.BN)),
                ("tensor", F16, (m, n), None),
                ("tensor", F16, (n, n), None),
                ("tensor", F32, (n,), None),
            ],
            2,
        ),
    }


NAMES = list(_specs(1, 1))


def _compile(name: str, arch: str, m: int, n: int) -> Any:
    kernel, spec, grid = _specs(m, n)[name]
    params = [param_info(f"p{i}", kind, dt, shape, tile) for i, (kind, dt, shape, tile) in enumerate(spec)]
    return compile_tile(kernel.fn, params, grid, arch=arch, use_cache=False)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("name", NAMES)
def test_kernel_assembles_aligned(name: str, arch: str) -> None:
    c = _compile(name, arch, 1024, 512)
    assert c.cubin[:4] == b"\x7fELF"
    assert f".target {arch}" in c.ptx


@pytest.mark.parametrize("name", NAMES)
def test_kernel_assembles_ragged(name: str) -> None:
    c = _compile(name, "sm_90", 1001, 203)  # last extents not multiples of the vector width
    assert c.cubin[:4] == b"\x7fELF"


def test_vecadd_uses_16_byte_accesses() -> None:
    ptx = _compile("vecadd", "sm_90", 1024, 512).ptx
    assert "ld.global.nc.v4.f32" in ptx or "ld.global.nc.v4.b32" in ptx
    assert "st.global.v4.f32" in ptx or "st.global.v4.b32" in ptx


def test_softmax_reduces_with_shuffles() -> None:
    ptx = _compile("softmax", "sm_90", 1024, 8192).ptx
    assert "shfl.sync.bfly" in ptx and "bar.sync" in ptx


@pytest.mark.parametrize("name", ["gemm_f16", "gemm_bf16"])
def test_gemm_uses_tensor_cores_and_async_copies(name: str) -> None:
    c = _compile(name, "sm_90", 1024, 512)
    assert "mma.sync.aligned.m16n8k16.row.col.f32" in c.ptx
    assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in c.ptx
    assert "cp.async.cg.shared.global" in c.ptx and "cp.async.wait_group" in c.ptx
    assert c.smem_bytes >= 3 * (K.BM * K.BK + K.BK * K.BN) * 2  # pipelined: at least three stages


def test_ragged_gemm_falls_back_to_register_staging() -> None:
    c = _compile("matmul_example", "sm_90", 300, 130)  # K = 130: rows are not 16-byte aligned
    assert "cp.async" not in c.ptx and "mma.sync" in c.ptx


@pytest.mark.parametrize("name", ["gemm_f16", "gemm_bf16", "gemm_bias_relu"])
def test_gemm_uses_warpgroup_mma_on_sm_90a(name: str) -> None:
    c = _compile(name, "sm_90a", 1024, 512)
    dt = "bf16" if name == "gemm_bf16" else "f16"
    assert c.arch == "sm_90a" and ".target sm_90a" in c.ptx and c.cubin[:4] == b"\x7fELF"
    assert f"wgmma.mma_async.sync.aligned.m64n{K.BN}k16.f32.{dt}.{dt}" in c.ptx
    assert c.ptx.count("wgmma.mma_async") == K.BK // 16  # one per k16 step of the main loop
    assert "wgmma.fence.sync.aligned" in c.ptx and "wgmma.commit_group.sync.aligned" in c.ptx
    assert "wgmma.wait_group.sync.aligned" in c.ptx and "mma.sync" not in c.ptx
    # operands by the copy engine (codegen.tile.tma; the cp.async variant: test_tensor_core_compile.py)
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes" in c.ptx
    assert "mbarrier.try_wait.parity.shared::cta.b64" in c.ptx and "cp.async.cg" not in c.ptx
    assert c.threads == 128 * (K.BM // 64)  # one warpgroup per 64 accumulator rows
    stage = (K.BM * K.BK + K.BK * K.BN) * 2
    assert c.smem_bytes >= 3 * stage


def test_sm_90a_ragged_gemm_falls_back_to_mma_sync() -> None:
    c = _compile("gemm_f16", "sm_90a", 1001, 203)  # last extents not multiples of 8: no cp.async operands
    assert "wgmma" not in c.ptx and "mma.sync.aligned.m16n8k16" in c.ptx
    assert c.arch == "sm_90" and ".target sm_90" in c.ptx


def test_sm_90a_request_without_matmul_emits_plain_sm_90() -> None:
    c = _compile("softmax", "sm_90a", 1024, 8192)
    assert c.arch == "sm_90" and ".target sm_90\n" in c.ptx + "\n" and "wgmma" not in c.ptx


def test_wgmma_operand_layout_is_the_128_byte_swizzle() -> None:
    import ctypes

    from llvmlite import binding as llvm
    from llvmlite import ir

    from safekernels.codegen.tile import wgmma

    mod = ir.Module()
    fn = ir.Function(mod, ir.FunctionType(ir.IntType(64), [ir.IntType(64)] * 2), "off")
    b = ir.IRBuilder(fn.append_basic_block())
    b.ret(wgmma.smem_offset(b, fn.args[0], fn.args[1], 64))  # an operand of 64 lines
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    parsed = llvm.parse_assembly(str(mod))
    tm = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(parsed, tm)
    engine.finalize_object()
    off = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)(engine.get_function_address("off"))
    assert off(0, 0) == 0 and off(1, 0) == 128 + 16  # line 1: chunk 0 ^ 1
    assert off(5, 3) == 5 * 128 + (3 ^ 5) * 16
    assert off(5, 11) == 64 * 128 + 5 * 128 + (3 ^ 5) * 16  # chunk 11 = block 1, chunk 3
    assert off(9, 0) == 9 * 128 + 16  # lines 8.. repeat the pattern: 1024-byte atoms
    assert wgmma.shape_ok(128, 256, 64, 256) and not wgmma.shape_ok(128, 256, 32, 256)
    assert not wgmma.shape_ok(128, 128, 64, 128) and wgmma.warps_for(128, 256) == 8
