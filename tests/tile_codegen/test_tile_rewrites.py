"""The tile IR rewrites (`codegen.tile.rewrites`), checked on the IR and the PTX without a GPU.

Under `fast_math`, `tile.exp(a - b)` compiles to `exp2(a * log2e - b * log2e)`: one FMA and one
`ex2.approx.ftz` per element, as the tuned attention kernel writes by hand; without `fast_math` `exp` keeps its
accuracy.  A mask `(A <= B) | u` with a scalar `u` becomes one compare against a per-row limit, always.  The
plain attention program (the example's body at d = 128) compiles within 5% of the tuned kernel's PTX, and the
rewritten kernels assemble with nvJitLink for sm_90a and sm_80.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated, Any

import pytest

from safekernels import tile
from safekernels.codegen.tile.frontend import build_tile_ir
from safekernels.codegen.tile.ir import ForOp, Op
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.rewrites import LOG2E, rewrite_tile_ir
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of, f32, i32
from safekernels.tile import Partition, Tensor

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "examples")]

import attention_tile  # noqa: E402

from bench.kernels import attention_plain as P  # noqa: E402
from bench.kernels import tensor_core_kernels as T  # noqa: E402

F32, BF16, I32, BOOL = dtype_of("f32"), dtype_of("bf16"), dtype_of("i32"), dtype_of("bool")


def _softexp(out: Annotated[Partition[f32], tile.Dims(16, 32)], x: Tensor[f32], m: Tensor[f32], scale: f32) -> None:
    s = x.load((tile.bid(0), 0), (16, 32)) * scale
    out.store(tile.exp(s - m.load((tile.bid(0), 0), (16, 1))))


def _masked(out: Annotated[Partition[f32], tile.Dims(16, 32)], x: Tensor[f32], flag: i32, shift: i32) -> None:
    rows = tile.reshape(tile.iota(16, i32), (16, 1)) + shift
    cols = tile.reshape(tile.iota(32, i32), (1, 32))
    keep = (cols <= rows) | (flag == 0)
    keep_ge = (cols >= rows - 8) | (flag == 1)
    out.store(tile.where(keep & keep_ge, x.load((tile.bid(0), 0), (16, 32)), 0.0))


softexp_precise = tile.kernel(num_warps=1)(_softexp)
softexp_fast = tile.kernel(num_warps=1, fast_math=True)(_softexp)
masked = tile.kernel(num_warps=1)(_masked)


def _softexp_params() -> list[Any]:
    return [param_info("out", "partition", F32, (64, 32), (16, 32)), param_info("x", "tensor", F32, (64, 32)),
            param_info("m", "tensor", F32, (64, 1)), param_info("scale", "scalar", F32)]  # fmt: skip


def _attention_params(d: int, bm: int, rows: int = 4096) -> list[Any]:
    return [param_info("out", "partition", BF16, (rows, d), (bm, d))] + [
        param_info(n, "tensor", BF16, (rows, d)) for n in "qkv"
    ] + [param_info("seq", "scalar", I32), param_info("scale", "scalar", F32), param_info("causal", "scalar", I32)]


def _ops(ops: list[Op]) -> list[Op]:
    out: list[Op] = []
    for op in ops:
        out.append(op)
        if isinstance(op, ForOp):
            out += _ops(op.body)
    return out


def test_fast_math_turns_exp_of_a_difference_into_exp2_of_one_fma() -> None:
    kir = build_tile_ir(softexp_fast.fn, _softexp_params(), 2)
    counts = rewrite_tile_ir(kir, fast_math=True)
    assert (counts.exp2, counts.exp2_fma) == (1, 1)
    kinds = [op.kind for op in _ops(kir.body)]
    assert "exp" not in kinds and "exp2" in kinds
    assert any(op.kind == "const" and op.attrs.get("value") == LOG2E for op in _ops(kir.body))
    quick = compile_tile(softexp_fast.fn, _softexp_params(), 2, arch="sm_90", use_cache=False, fast_math=True)
    ex2 = len(re.findall(r"ex2\.approx\.ftz\.f32", quick.ptx))
    fma = len(re.findall(r"\bfma\.rn\.f32", quick.ptx))
    assert ex2 == 16 and fma == ex2  # 512 elements over 32 threads: one FMA and one ex2 each


def test_without_fast_math_exp_keeps_libdevice_accuracy() -> None:
    kir = build_tile_ir(softexp_precise.fn, _softexp_params(), 2)
    assert rewrite_tile_ir(kir, fast_math=False).exp2 == 0
    assert "exp" in [op.kind for op in _ops(kir.body)]
    precise = compile_tile(softexp_precise.fn, _softexp_params(), 2, arch="sm_90", use_cache=False)
    quick = compile_tile(softexp_fast.fn, _softexp_params(), 2, arch="sm_90", use_cache=False, fast_math=True)
    # expf's range reduction: three FMAs per element where the rewrite has one
    assert len(re.findall(r"\bfma\.rn\.f32", precise.ptx)) >= 3 * len(re.findall(r"\bfma\.rn\.f32", quick.ptx))


def test_or_with_a_scalar_flag_becomes_one_compare_against_a_per_row_limit() -> None:
    params = [param_info("out", "partition", F32, (64, 32), (16, 32)), param_info("x", "tensor", F32, (64, 32)),
              param_info("flag", "scalar", I32), param_info("shift", "scalar", I32)]  # fmt: skip
    kir = build_tile_ir(masked.fn, params, 2)
    assert rewrite_tile_ir(kir, fast_math=False).mask_limit == 2
    ops = _ops(kir.body)
    assert not any(op.kind == "bitor" for op in ops)
    limits = [op for op in ops if op.kind == "where" and op.result is not None and op.result.type.shape == (16, 1)]
    values = sorted(next(o for o in ops if o.result is w.args[1]).attrs["value"] for w in limits)
    assert values == [-(2**31), 2**31 - 1]  # `cols <= rows`: rows -> MAX when the flag holds; `cols >= r`: r -> MIN
    for arch in ("sm_80", "sm_90"):
        assert compile_tile(masked.fn, params, 2, arch=arch, use_cache=False).cubin[:4] == b"\x7fELF"


def test_plain_attention_compiles_within_five_percent_of_the_tuned_kernel() -> None:
    params = _attention_params(128, 128)
    plain = compile_tile(P.attention_plain_fast.fn, params, 2, arch="sm_90a", num_warps=8, use_cache=False,
                         fast_math=True)  # fmt: skip
    tuned = compile_tile(T.attention.fn, params, 2, arch="sm_90a", num_warps=8, use_cache=False, fast_math=True)
    assert plain.cubin[:4] == b"\x7fELF"
    lines = plain.ptx.count("\n"), tuned.ptx.count("\n")
    assert lines[0] <= 1.05 * lines[1], lines
    assert plain.ptx.count("ex2.approx.ftz.f32") == tuned.ptx.count("ex2.approx.ftz.f32")
    slow = compile_tile(P.attention_plain.fn, params, 2, arch="sm_90a", num_warps=8, use_cache=False)
    assert slow.ptx.count("\n") > 1.2 * lines[1]  # without fast_math, exp keeps its range reduction


@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_the_example_attention_assembles_rewritten(arch: str) -> None:
    params = _attention_params(attention_tile.D, attention_tile.BM, rows=512)
    for fast_math in (False, True):
        compiled = compile_tile(attention_tile.attention.fn, params, 2, arch=arch, use_cache=False, fast_math=fast_math)
        assert compiled.cubin[:4] == b"\x7fELF"
