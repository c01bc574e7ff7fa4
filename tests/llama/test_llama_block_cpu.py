"""The decoder-layer example (examples/llama_block/) without torch or a GPU.

The whole layer runs kernel by kernel on the CPU executor at a tiny config (8 heads, 2 KV heads, two sequences of
256 tokens, a decode step at position 312 of 320, with the O and down projections split 3 ways along K, the last
split taking the remainder, and again with the down projection's residual in its GEMM epilogue) against the
float64 numpy reference; and every kernel compiles for sm_90a at the Llama-3-8B shapes onto the paths the H200
numbers depend on (TMA + warpgroup MMA, persistent GEMMs), so a compiler change that drops a kernel off them
fails here, before a device run.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import safekernels as sk  # noqa: E402
from examples.llama_block import kernels as K  # noqa: E402
from examples.llama_block.numpy_layer import Config, check  # noqa: E402
from safekernels.dtypes import dtype_of  # noqa: E402


def test_layer_on_the_cpu_executor_matches_numpy() -> None:
    errors = check(sk.Device.cpu(), Config.tiny(), batch=2, seq=256, max_pos=320)
    assert set(errors) == {"prefill", "decode", "decode, no split-K", "decode k row", "decode v row"}
    for name, err in errors.items():
        assert err < 1e-2, (name, err)  # bf16 intermediates: about 3e-3


def test_config_outside_the_kernels_tiles_is_refused() -> None:
    with pytest.raises(ValueError, match="heads = 4 \\* kv_heads"):
        check(sk.Device.cpu(), Config(hidden=1024, heads=8, kv_heads=4, intermediate=256), 1, 128, 160)


BF, F32, I32 = dtype_of("bf16"), dtype_of("f32"), dtype_of("i32")
T, HID, INTER, B, POS = 8192, 4096, 14336, 32, 2176
QKV, QK = 6144, 5120


def _specs() -> dict[str, tuple[Any, list[Any]]]:
    from safekernels.codegen.tile.specialize import param_info

    def part(name: str, shape: tuple[int, ...], tile: tuple[int, ...]) -> Any:
        return param_info(name, "partition", BF, shape, tile)

    def ten(name: str, shape: tuple[int, ...], dt: Any = BF) -> Any:
        return param_info(name, "tensor", dt, shape)

    def sc(name: str, dt: Any) -> Any:
        return param_info(name, "scalar", dt)

    gemm_in = [ten("a", (T, HID)), ten("b", (HID, QKV))]
    return {
        "gemm": (K.gemm, [part("c", (T, QKV), (K.BM, K.BN)), *gemm_in]),
        "dgemm_swiglu": (
            K.dgemm_swiglu,
            [part("c", (B, INTER), (K.DBM, K.GU)), ten("a", (B, HID)), ten("wgu", (HID, 2 * INTER))],
        ),
        "dgemm_residual": (
            K.dgemm_residual,
            [part("c", (B, HID), (K.DBM, K.DBN)), ten("a", (B, INTER)), ten("b", (INTER, HID)), ten("r", (B, HID))],
        ),
        "dgemm_splitk": (
            K.dgemm_splitk,
            [
                param_info("c", "partition", F32, (4, B, HID), (1, K.DBM, K.DBN)),
                ten("a", (B, INTER)),
                ten("b", (INTER, HID)),
            ],
        ),
        "attention": (
            K.attention,
            [
                part("out", (T, HID), (K.ATT_BM, K.D)),
                ten("qk", (T, QK)),
                ten("qkv", (T, QKV)),
                sc("seq", I32),
                sc("scale", F32),
            ],
        ),
        "decode_attention": (
            K.decode_attention,
            [
                part("out", (B, HID), (1, K.GROUP * K.D)),
                ten("qk", (B, QK)),
                ten("k_cache", (POS, B * 1024)),
                ten("v_cache", (POS, B * 1024)),
                sc("length", I32),
                sc("scale", F32),
            ],
        ),
    }


@pytest.mark.parametrize(
    "name", ["gemm", "dgemm_swiglu", "dgemm_residual", "dgemm_splitk", "attention", "decode_attention"]
)
def test_kernels_compile_onto_the_tensor_core_paths(name: str) -> None:
    from safekernels.codegen.tile.pipeline import compile_tile

    kernel, infos = _specs()[name]
    compiled = compile_tile(kernel.fn, infos, 2, arch="sm_90a", num_warps=kernel.num_warps, fast_math=kernel.fast_math)
    assert compiled.cubin
    assert "wgmma.mma_async" in compiled.ptx and "cp.async.bulk.tensor" in compiled.ptx, name
    assert "ld.local" not in compiled.ptx, f"{name} spills"
    if name in ("gemm", "dgemm_residual", "dgemm_splitk"):
        assert compiled.persistent, name
