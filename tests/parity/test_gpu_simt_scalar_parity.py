"""On the GPU: SIMT scalars mixing a typed int and a typed float (`simt_scalar_generator`) store the CPU
executor's values, bit for bit, in every thread.  Every case (432 small kernels).  Run on the device machine:
`PYTHONPATH=src:. python3 -m pytest -m gpu tests/parity`.  Imports neither libcst nor mypy.
"""

from __future__ import annotations

import pytest
from simt_scalar_generator import SimtScalarCase, run, simt_scalar_cases

import safekernels as sk

pytestmark = pytest.mark.gpu

CASES = simt_scalar_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
def test_simt_int_with_float_gives_the_cpu_values_on_the_gpu(case: SimtScalarCase) -> None:
    want = run(case, sk.Device.cpu())
    got = run(case, sk.Device(0))
    assert got.kind == want.kind, f"{case.name}: CPU {want}, GPU {got}\n{case.text}"
    if want.kind == "reject":
        assert (got.code, got.where) == (want.code, want.where)
        return
    g, w = got.values[0], want.values[0]
    assert g.tobytes() == w.tobytes(), f"{case.name}: GPU {g.tolist()[:4]}\nCPU {w.tolist()[:4]}\n{case.text}"
