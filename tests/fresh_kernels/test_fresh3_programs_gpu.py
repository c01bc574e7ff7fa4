"""The third batch of fresh programs on the GPU: values equal the CPU executor's and the numpy reference (exactly
for integers and data movement, within the program's stated bound for floats).

Runs on a machine with an NVIDIA GPU (`pytest -m gpu tests/fresh_kernels/test_fresh3_programs_gpu.py`); imports
neither libcst nor mypy.
"""

from __future__ import annotations

import numpy as np
import pytest
from fresh3_simt_programs import PROGRAMS as SIMT_PROGRAMS
from fresh3_tile_programs import PROGRAMS as TILE_PROGRAMS
from fresh_program import Program

import safekernels as sk

PROGRAMS = [*TILE_PROGRAMS, *SIMT_PROGRAMS]


@pytest.mark.gpu
@pytest.mark.parametrize("program", PROGRAMS, ids=str)
def test_the_gpu_gives_the_cpu_executors_and_numpys_values(program: Program) -> None:
    want = program.run(sk.Device.cpu())
    got = program.run(sk.Device(0))
    reference = program.reference()
    assert len(got) == len(want) == len(reference)
    for i, (g, w, r) in enumerate(zip(got, want, reference, strict=True)):
        assert g.dtype == w.dtype and g.shape == w.shape, (program.name, i)
        if program.rtol == 0.0:
            np.testing.assert_array_equal(g, w, err_msg=f"{program.name}: output {i} (GPU vs CPU)")
            np.testing.assert_array_equal(g, np.asarray(r).astype(g.dtype), err_msg=f"{program.name}: {i} (numpy)")
        else:
            rtol = program.rtol
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol, err_msg=f"{program.name}: {i} (GPU vs CPU)")
            np.testing.assert_allclose(g, r, rtol=rtol, atol=rtol, err_msg=f"{program.name}: {i} (numpy)")
