"""The run-time scalar forms of tile kernels (`scalar_generator`), CI half (no GPU needed).

For each sampled case the CPU executor and the GPU compiler reach the same verdict (both accept, or both refuse
with the same SK code at the same file:line:col: the refusal comes from the shared front end), and where both
accept, the value the CPU executor stores equals, bit for bit, the constant LLVM folds the GPU's IR to with the
same inputs (`scalar_generator.folded_gpu_value`): an f32 computed where the other computes f64, or an i32 wrap
where the other wraps at i64, shows.  The sample covers every source x op; `SAFEKERNELS_PARITY_LONG=1` runs
every case.  The H200 half (values of every use, the index use included) is test_gpu_scalar_parity.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from language_runner import Outcome, _refusal
from scalar_generator import (
    FOLDABLE,
    LITERALS,
    OPS,
    SOURCES,
    USES,
    ScalarCase,
    coverage,
    folded_gpu_value,
    gpu_ir,
    load,
    run,
    sample,
    scalar_cases,
)

import safekernels as sk

CASES = scalar_cases()
SAMPLE = sample(CASES)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "numerics.md"


def test_the_scalar_family_covers_every_form_and_the_docs_state_its_size() -> None:
    counts = coverage(CASES)
    print(f"\nrun-time scalar kernels: {counts}; CI sample {len(SAMPLE)}")
    assert counts == {
        "kernels": len(SOURCES) * len(OPS) * len(LITERALS) * len(USES),
        "sources": len(SOURCES),
        "ops": len(OPS),
        "literals": 3,
        "uses": 4,
    }
    assert {(c.source, c.op) for c in SAMPLE} == {(c.source, c.op) for c in CASES}
    found = re.search(r"run-time scalars: (\d+) kernels \((\d+) sources x (\d+) ops", DOCS.read_text())
    assert found, "docs/numerics.md lacks the run-time scalar family's size"
    assert tuple(int(g) for g in found.groups()) == (counts["kernels"], counts["sources"], counts["ops"])


@pytest.mark.parametrize("case", SAMPLE, ids=[c.name for c in SAMPLE])
def test_run_time_scalar_cpu_and_gpu_agree(case: ScalarCase) -> None:
    cpu = run(case, sk.Device.cpu())
    try:
        llvm_ir, name, abi = gpu_ir(case, load(case))
        gpu = Outcome("accept")
    except Exception as exc:
        gpu = _refusal(exc)
    verdict = "accept" if cpu.kind in ("accept", "trap") else "reject"
    assert gpu.kind == verdict, f"{case.name}: CPU {cpu}, GPU {gpu}\n{case.text}"
    if verdict == "reject":
        assert (gpu.code, gpu.where) == (cpu.code, cpu.where), f"{case.name}: CPU {cpu} but GPU {gpu}"
        return
    assert cpu.kind == "accept", f"{case.name}: the CPU executor trapped ({cpu.detail})"
    if case.use not in FOLDABLE:
        return
    want = cpu.values[0][16]  # block 1, element 0
    got = folded_gpu_value(llvm_ir, name, abi, case)
    if case.out_dtype == "f64":
        same = np.float64(got).tobytes() == np.float64(want).tobytes() or (np.isnan(got) and np.isnan(want))
    else:
        same = np.uint64(int(got) & (2**64 - 1)).astype(np.int64) == np.int64(want)
    assert same, f"{case.name}: the GPU's IR folds to {got!r}, the CPU executor stores {want!r}\n{case.text}"
