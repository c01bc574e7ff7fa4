"""The third batch of fresh programs on the CPU executor against numpy, assembled for sm_90a and sm_80 (no GPU
needed), and its refusals: both executors refuse with the same SK code at the same `file:line:col`.

What the batch found on the CPU executor (each program below is its regression test): a chained comparison
compared its pairs in numpy's f64 (`lo <= i32 < hi` with f32 bounds) and the GPU evaluated a chain's middle
operand once per pair (an atomic in it ran twice); `math.floor/ceil/trunc` of inf/NaN raised (the GPU saturates
to i64, NaN giving 0); a conditional expression kept its taken arm's type (`i8(x) if c else i64(y)` stayed an
i8 and overflowed) where the front end converts both arms to their common type.
"""

from __future__ import annotations

import pytest
import test_fresh_programs
from fresh3_simt_programs import PROGRAMS as SIMT_PROGRAMS
from fresh3_simt_programs import REFUSALS as SIMT_REFUSALS
from fresh_program import Program, Refusal
from test_fresh_programs import assert_close

import safekernels as sk

PROGRAMS = [*SIMT_PROGRAMS]
REFUSALS = [*SIMT_REFUSALS]
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
