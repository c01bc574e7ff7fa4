"""One tile load read by two matmuls, once as `tile.transpose(t)` (K-major B) and once as `t` (MN-major B): on
sm_90a both read one shared-memory tile on the warpgroup MMA path (one TMA copy per iteration), as two separate
loads of the same tile would, instead of falling back to `mma.sync` from registers; sm_80 still assembles.
No GPU needed; the H200 value check is tests/gpu_tile/test_gpu_shared_transposed_operand.py."""

from __future__ import annotations

from typing import Annotated, Any

import pytest

from safekernels import tile
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import bf16, dtype_of, f32
from safekernels.tile import Partition, Tensor

BF, F = dtype_of("bf16"), dtype_of("f32")


@tile.kernel(num_warps=8)
def two_loads(out: Annotated[Partition[f32], tile.Dims(128, 128)], q: Tensor[bf16], k: Tensor[bf16]) -> None:
    qt = q.load((tile.bid(0), 0), (128, 128))
    acc = tile.zeros((128, 128), f32)
    for j in range(k.shape[0] // 64):
        kt = k.load((j, 0), (64, 128))
        s = tile.matmul(qt, tile.transpose(kt), tile.zeros((128, 64), f32))
        acc = tile.matmul(s.astype(bf16), k.load((j, 0), (64, 128)), acc)
    out.store(acc)


@tile.kernel(num_warps=8)
def one_load(out: Annotated[Partition[f32], tile.Dims(128, 128)], q: Tensor[bf16], k: Tensor[bf16]) -> None:
    qt = q.load((tile.bid(0), 0), (128, 128))
    acc = tile.zeros((128, 128), f32)
    for j in range(k.shape[0] // 64):
        kt = k.load((j, 0), (64, 128))
        s = tile.matmul(qt, tile.transpose(kt), tile.zeros((128, 64), f32))
        acc = tile.matmul(s.astype(bf16), kt, acc)
    out.store(acc)


def _compile(kernel: Any, arch: str) -> Any:
    params = [
        param_info("out", "partition", F, (1024, 128), (128, 128)),
        param_info("q", "tensor", BF, (1024, 128)),
        param_info("k", "tensor", BF, (1024, 128)),
    ]
    return compile_tile(kernel.fn, params, 2, arch=arch, use_cache=False, num_warps=8)


def test_a_load_read_transposed_and_plain_stays_on_warpgroup_mma_with_one_copy() -> None:
    shared, separate = _compile(one_load, "sm_90a"), _compile(two_loads, "sm_90a")
    assert shared.cubin[:4] == b"\x7fELF"
    assert "mma.sync" not in shared.ptx and "ld.local" not in shared.ptx
    assert shared.ptx.count("wgmma.mma_async") == separate.ptx.count("wgmma.mma_async") == 12
    # the same instructions (8 K-major k16 steps of q @ k^T, 4 MN-major ones of p @ k), one copy of K per step
    assert shared.ptx.count("p, 1, 1, 0, 0;") == separate.ptx.count("p, 1, 1, 0, 0;") == 8
    assert shared.ptx.count("p, 1, 1, 1;") == separate.ptx.count("p, 1, 1, 1;") == 4
    copies = "cp.async.bulk.tensor"
    assert 0 < shared.ptx.count(copies) < separate.ptx.count(copies)
    assert shared.smem_bytes < separate.smem_bytes


@pytest.mark.parametrize("kernel", [one_load, two_loads], ids=["one_load", "two_loads"])
def test_sm_80_assembles_both_forms(kernel: Any) -> None:
    assert _compile(kernel, "sm_80").cubin[:4] == b"\x7fELF"
