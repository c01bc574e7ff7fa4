"""`tile.exp2` on the GPU is libdevice's `exp2f`, one `ex2.approx.f32`, where `tile.exp` is libdevice's
range-reduced `expf` (about ten instructions): the flash-attention bench kernel writes its softmax in log2
units with it.  CI without a GPU: PTX checks; the CPU executor's results are numpy's."""

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
from safekernels.dtypes import bf16, dtype_of, f32
from safekernels.tile import Partition, Tensor

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.kernels import tensor_core_kernels as T  # noqa: E402

F32, BF16, I32 = dtype_of("f32"), dtype_of("bf16"), dtype_of("i32")


@tile.kernel
def exp_and_exp2(
    e: Annotated[Partition[f32], tile.Dims(256)],
    e2: Annotated[Partition[f32], tile.Dims(256)],
    h: Annotated[Partition[bf16], tile.Dims(256)],
    x: Tensor[f32],
) -> None:
    t = tile.load_like(x, e)
    e.store(tile.exp(t))
    e2.store(tile.exp2(t))
    h.store(tile.exp2(t.astype(bf16)))


def _compile(arch: str) -> Any:
    spec = [("partition", F32, (1024,), (256,))] * 2 + [("partition", BF16, (1024,), (256,))]
    spec += [("tensor", F32, (1024,), None)]
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    return compile_tile(exp_and_exp2.fn, params, 1, arch=arch, use_cache=False)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_exp2_is_one_ex2_per_element(arch: str) -> None:
    c = _compile(arch)
    assert c.cubin[:4] == b"\x7fELF"
    # per element: exp is a range reduction (one fma.rm among ~9 instructions) around one ex2.approx.ftz; exp2
    # (of f32 and of bf16, computed in f32) one plain ex2.approx each
    per_exp = c.ptx.count("ex2.approx.ftz.f32")
    assert per_exp > 0 and c.ptx.count("fma.rm.f32") == per_exp
    assert c.ptx.count("ex2.approx.f32") == 2 * per_exp


def test_exp2_on_the_cpu_executor_is_numpys() -> None:
    from safekernels.dtypes import bf16_to_f32, f32_to_bf16

    x = np.linspace(-140.0, 80.0, 1024).astype(np.float32)
    stream = sk.Device.cpu().new_stream()
    outs = [tile.zeros((1024,), dt).partition((256,)) for dt in (f32, f32, bf16)]
    e, e2, h, _ = exp_and_exp2(*outs, tile.from_numpy(x)).sync_on(stream)
    np.testing.assert_allclose(e.unpartition().to_numpy(stream), np.exp(x), rtol=1e-6)
    np.testing.assert_array_equal(e2.unpartition().to_numpy(stream), np.exp2(x))
    got = h.unpartition().to_numpy(stream).astype(np.float32)
    want = bf16_to_f32(f32_to_bf16(np.exp2(bf16_to_f32(f32_to_bf16(x)))))  # rounded to bf16 in and out
    np.testing.assert_array_equal(got, want)


def test_bench_attention_softmax_uses_exp2_and_no_range_reduction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop_split, "ENABLED", False)  # one key loop body (the split lowers it twice)
    spec = [("partition", BF16, (4096, T.ATT_D), (T.ATT_BM, T.ATT_D))] + [("tensor", BF16, (4096, T.ATT_D), None)] * 3
    spec += [("scalar", I32, (), None), ("scalar", F32, (), None), ("scalar", I32, (), None)]
    params = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    assert T.attention.fast_math  # the bench kernel opts in: one flush-to-zero ex2 per score, FMAs
    for fast, ex2 in ((False, "ex2.approx.f32"), (True, "ex2.approx.ftz.f32")):
        c = compile_tile(
            T.attention.fn, params, 1, arch="sm_90a", num_warps=T.attention.num_warps, use_cache=False, fast_math=fast
        )
        first, last = c.ptx.index("wgmma.mma_async"), c.ptx.rindex("wgmma.mma_async")
        body = c.ptx[first:last]
        per_thread = T.ATT_BM * T.ATT_BN // c.threads  # score elements per thread per key block
        assert body.count(ex2) == per_thread + 2  # p, and alpha of the thread's two rows
        assert "fma.rm.f32" not in body and ("ex2.approx.ftz" in body) == fast
        # `s * scale2 - m`: one fused multiply-add per score under fast_math, two roundings without
        assert (body.count("fma.rn.f32") >= per_thread) == fast
