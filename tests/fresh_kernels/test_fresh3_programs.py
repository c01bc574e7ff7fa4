"""The third batch of fresh programs on the CPU executor against numpy, assembled for sm_90a and sm_80 (no GPU
needed), and its refusals: both executors refuse with the same SK code at the same `file:line:col`.

What the batch found on the CPU executor (each program below is its regression test): a chained comparison
compared its pairs in numpy's f64 (`lo <= i32 < hi` with f32 bounds) and the GPU evaluated a chain's middle
operand once per pair (an atomic in it ran twice); `math.floor/ceil/trunc` of inf/NaN raised (the GPU saturates
to i64, NaN giving 0); a conditional expression kept its taken arm's type (`i8(x) if c else i64(y)` stayed an
i8 and overflowed) where the front end converts both arms to their common type, and so did a local of a joined
type, a helper's return value and its annotated arguments; an int stored or atomically added into a narrower
element raised `OverflowError` (the GPU wraps); `int(x)` raised on NaN/inf, and `float(x)` and `math.*` of ints
were Python's weak floats (computed in f32 beside an f32). The GPU compiler refused an f16 matmul whose
accumulator an explicit `num_warps=8` cannot split, which the CPU executor ran (it runs on the FMA units now).
"""

from __future__ import annotations

import pytest
import test_fresh_programs
from fresh3_simt_programs import PROGRAMS as SIMT_PROGRAMS
from fresh3_simt_programs import REFUSALS as SIMT_REFUSALS
from fresh3_tile_programs import PROGRAMS as TILE_PROGRAMS
from fresh3_tile_programs import REFUSALS as TILE_REFUSALS
from fresh3_tile_programs import TRAPS, trap_args
from fresh_program import Program, Refusal
from test_fresh_programs import assert_close

import safekernels as sk
from safekernels.errors import KernelTrapError

PROGRAMS = [*TILE_PROGRAMS, *SIMT_PROGRAMS]
REFUSALS = [*TILE_REFUSALS, *SIMT_REFUSALS]
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


@pytest.mark.parametrize("program", PROGRAMS, ids=str)
def test_the_cpu_executor_gives_the_reference_values(program: Program) -> None:
    assert_close(program.run(sk.Device.cpu()), program.reference(), program.rtol, program.name)


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
@pytest.mark.parametrize("program", PROGRAMS, ids=str)
def test_the_gpu_compiler_assembles_it(program: Program, arch: str) -> None:
    asm = program.assemble(arch)
    assert asm.cubin, f"nvJitLink returned no cubin for {program.name} on {arch}"


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
@pytest.mark.parametrize("refusal", REFUSALS, ids=str)
def test_both_refuse_alike(refusal: Refusal, arch: str) -> None:
    test_fresh_programs.test_both_executors_refuse_alike(refusal, arch)


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
@pytest.mark.parametrize("name", list(TRAPS))
def test_a_tile_index_out_of_range_traps_on_both(name: str, arch: str) -> None:
    kernel = TRAPS[name][0]
    device = sk.Device.cpu()
    with pytest.raises(KernelTrapError, match=r"tile index \(.*\) out of bounds for `x`"):
        kernel(*trap_args(name, device)).sync_on(device.new_stream())
    assert "trap;" in kernel.inspect(*trap_args(name, device), arch=arch)["ptx"]


def test_the_fma_rule_for_warps_is_the_tensor_core_layouts_condition() -> None:
    """`target_rules.accumulator_splits` (pure Python, read by the front end) holds exactly where the lowering's
    `layout.mma_for` finds a warp split: a matmul the rule leaves on the tensor cores always gets a layout."""
    from safekernels.codegen.tile.layout import mma_for
    from safekernels.codegen.tile.target_rules import accumulator_splits

    for bm in (16, 32, 48, 64, 128, 256):
        for bn in (16, 32, 48, 64, 128, 256):
            for warps in (1, 2, 3, 4, 6, 8, 16, 32):
                assert accumulator_splits((bm, bn), warps) == (mma_for((bm, bn), warps) is not None), (bm, bn, warps)
