"""On the GPU: every run-time scalar form (`scalar_generator`) stores the CPU executor's values, bit for bit.

Both executors run each case with the same inputs; they must reach the same verdict (accept, or refuse with the
same SK code and location) and store the same output, every element of both tile blocks (the index use, whose
value CI cannot fold from the IR, included).  The CI sample by default; `SAFEKERNELS_PARITY_LONG=1` runs every
case.  Run on the device machine: `PYTHONPATH=src:. python3 -m pytest -m gpu tests/parity`.  Imports neither
libcst nor mypy.
"""

from __future__ import annotations

import numpy as np
import pytest
from scalar_generator import ScalarCase, run, sample, scalar_cases

import safekernels as sk

pytestmark = pytest.mark.gpu

CASES = sample(scalar_cases())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_run_time_scalar_gives_the_cpu_values_on_the_gpu(case: ScalarCase) -> None:
    want = run(case, sk.Device.cpu())
    got = run(case, sk.Device(0))
    assert got.kind == want.kind, f"{case.name}: CPU {want}, GPU {got}\n{case.text}"
    if want.kind == "reject":
        assert (got.code, got.where) == (want.code, want.where), f"{case.name}: CPU {want}, GPU {got}"
        return
    g, w = got.values[0], want.values[0]
    assert g.dtype == w.dtype
    assert g.tobytes() == w.tobytes(), f"{case.name}: GPU {g.tolist()}\nCPU {w.tolist()}\n{case.text}"
    assert np.array_equal(g, w, equal_nan=g.dtype.kind == "f")
