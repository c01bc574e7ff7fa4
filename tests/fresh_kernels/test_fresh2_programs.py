"""The second batch of fresh programs on the CPU executor against numpy, and assembled for sm_90a (no GPU needed).

For each program: the CPU executor's values equal the reference (exactly, or within the program's stated bound);
nvJitLink assembles it for sm_90a; where it states folded constants, the sm_90a LLVM IR stores them.
"""

from __future__ import annotations

import re

import pytest
from fresh2_simt_programs import PROGRAMS as SIMT_PROGRAMS
from fresh2_tile_programs import PROGRAMS as TILE_PROGRAMS
from fresh_program import Program, stores
from test_fresh_programs import _llvm, assert_close

import safekernels as sk

PROGRAMS = [*TILE_PROGRAMS, *SIMT_PROGRAMS]
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


@pytest.mark.parametrize("program", PROGRAMS, ids=str)
def test_the_cpu_executor_gives_the_reference_values(program: Program) -> None:
    assert_close(program.run(sk.Device.cpu()), program.reference(), program.rtol, program.name)


@pytest.mark.parametrize("program", PROGRAMS, ids=str)
def test_the_gpu_compiler_assembles_it_for_sm_90a(program: Program) -> None:
    asm = program.assemble("sm_90a")
    assert asm.cubin, f"nvJitLink returned no cubin for {program.name}"
    for pattern in program.folded:
        assert re.search(pattern, _llvm(asm)), (program.name, pattern, stores(_llvm(asm))[:4])
