"""SIMT scalars mixing a typed int and a typed float (`simt_scalar_generator`), CI half (no GPU needed).

For each sampled case both executors accept (or refuse alike), and the value the CPU executor stores equals, bit
for bit, the constant LLVM folds the GPU's lowered IR to with the same parameters: the operation is computed in the
float's type on both (docs/simt-compiler.md), whatever the operator (`+ - * / // %`, comparisons, `min`/`max`).
`SAFEKERNELS_PARITY_LONG=1` runs every case; the H200 half is test_gpu_simt_scalar_parity.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from language_runner import Outcome, _refusal
from simt_scalar_generator import FLOATS, FORMS, INTS, SimtScalarCase, folded_gpu_value, run, sample, simt_scalar_cases

import safekernels as sk

CASES = simt_scalar_cases()
SAMPLE = sample(CASES)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "numerics.md"


def test_the_simt_scalar_family_covers_every_form_and_the_docs_state_its_size() -> None:
    assert len(CASES) == len(FORMS) * len(INTS) * len(FLOATS)
    assert {(c.form, c.float_dtype) for c in SAMPLE} == {(c.form, c.float_dtype) for c in CASES}
    assert {c.int_dtype for c in SAMPLE} == set(INTS)
    found = re.search(r"SIMT int x float scalars: (\d+) kernels", DOCS.read_text())
    assert found and int(found.group(1)) == len(CASES), "docs/numerics.md states the SIMT scalar family's size"


@pytest.mark.parametrize("case", SAMPLE, ids=[c.name for c in SAMPLE])
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
def test_simt_int_with_float_cpu_and_gpu_agree(case: SimtScalarCase) -> None:
    cpu = run(case, sk.Device.cpu())
    try:
        got = folded_gpu_value(case)
        gpu = Outcome("accept")
    except Exception as exc:
        gpu = _refusal(exc)
    assert gpu.kind == cpu.kind, f"{case.name}: CPU {cpu}, GPU {gpu}\n{case.text}"
    if cpu.kind == "reject":
        assert (gpu.code, gpu.where) == (cpu.code, cpu.where), f"{case.name}: CPU {cpu} but GPU {gpu}"
        return
    want = cpu.values[0][0]
    same = np.float64(got).tobytes() == np.float64(want).tobytes() or (np.isnan(got) and np.isnan(want))
    assert same, f"{case.name}: the GPU's IR folds to {got!r}, the CPU executor stores {want!r}\n{case.text}"
