"""The second batch of fresh programs on the GPU: values equal the CPU executor's (exactly, or within the stated
bound).

Runs on a machine with an NVIDIA GPU (`pytest -m gpu tests/fresh_kernels/test_fresh2_programs_gpu.py`); imports
neither libcst nor mypy.
"""

from __future__ import annotations

import numpy as np
import pytest
from fresh2_simt_programs import PROGRAMS as SIMT_PROGRAMS
from fresh2_tile_programs import PROGRAMS as TILE_PROGRAMS
from fresh_program import Program

import safekernels as sk

PROGRAMS = [*TILE_PROGRAMS, *SIMT_PROGRAMS]


@pytest.mark.gpu
@pytest.mark.parametrize("program", PROGRAMS, ids=str)
def test_the_gpu_gives_the_cpu_executors_values(program: Program) -> None:
    want = program.run(sk.Device.cpu())
    got = program.run(sk.Device(0))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.dtype == w.dtype and g.shape == w.shape, (program.name, i)
        if program.rtol == 0.0:
            np.testing.assert_array_equal(g, w, err_msg=f"{program.name}: output {i}")
        else:
            np.testing.assert_allclose(g, w, rtol=program.rtol, atol=program.rtol, err_msg=f"{program.name}: {i}")
