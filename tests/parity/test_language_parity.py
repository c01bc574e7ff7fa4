"""The parity rule on the generated language (`language_generator`), CI half (no GPU needed).

For every sampled case: the CPU executor and the GPU compiler reach the same verdict (both accept, or both
refuse with the same SK code at the same file:line:col), the verdict is what the op table's typing rule says,
every accepted kernel assembles with nvJitLink for sm_90a and sm_80 (sm_90 and sm_80 for SIMT), and every
out-of-range tile index traps on the CPU and compiles to a `trap`.  The sample is deterministic and touches
every op; `SAFEKERNELS_PARITY_LONG=1` runs every generated case (minutes).  The H200 half, values and traps on
the GPU, is test_gpu_language_parity.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from language_generator import LONG, Case, coverage, sample, simt_cases, tile_cases
from language_runner import Outcome, compile_simt_case, compile_tile_case, run_simt, run_tile

import safekernels as sk

CPU = sk.Device.cpu()
TILE = tile_cases()
SIMT = simt_cases()
TILE_SAMPLE = sample(TILE, per_op=2)
SIMT_SAMPLE = sample(SIMT, per_op=2)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "numerics.md"

#: The CPU executor checks the target rules of sm_90a (`codegen.tile.target_rules`), so on sm_90a the verdicts
#: are equal; sm_80 also refuses, by its own rule, every kernel with fp8 tensors (fp8 conversions need sm_89).
SM_80_FP8_RULE = "sm_89 or newer"


def test_the_generator_covers_the_language_and_the_docs_state_its_size() -> None:
    tile_counts, simt_counts = coverage(TILE), coverage(SIMT)
    print(f"\ngenerated tile kernels: {tile_counts}\ngenerated SIMT kernels: {simt_counts}")
    print(f"CI sample: {len(TILE_SAMPLE)} tile + {len(SIMT_SAMPLE)} SIMT kernels (long mode: {LONG})")
    from safekernels.tile.ops import OPS

    assert set(OPS) <= {c.op for c in TILE}, set(OPS) - {c.op for c in TILE}
    assert tile_counts["dtypes"] == 15 and simt_counts["dtypes"] == 13
    assert {c.op for c in TILE_SAMPLE} == {c.op for c in TILE} and {c.op for c in SIMT_SAMPLE} == {c.op for c in SIMT}
    text = DOCS.read_text()
    for label, counts in (("tile", tile_counts), ("SIMT", simt_counts)):
        pattern = rf"{label}: (\d+) kernels, (\d+) op x dtype x shape cells"
        found = re.search(pattern, text)
        assert found, f"docs/numerics.md lacks the line `{pattern}`"
        assert (int(found.group(1)), int(found.group(2))) == (counts["kernels"], counts["cells"]), found.group(0)


def _cpu(case: Case) -> Outcome:
    return run_tile(case, CPU) if case.track == "tile" else run_simt(case, CPU)


def _check(case: Case, archs: tuple[str, ...]) -> None:
    cpu = _cpu(case)
    if case.trap:
        assert cpu.kind == "trap", f"{case.name}: the CPU executor did not trap ({cpu})"
    verdict = "accept" if cpu.kind in ("accept", "trap") else "reject"
    if case.expect != "unknown":
        assert verdict == case.expect, f"{case.name}: the op table says {case.expect}, the CPU {cpu}\n{case.source}"
    for arch in archs:
        gpu = compile_tile_case(case, arch) if case.track == "tile" else compile_simt_case(case, arch)
        if verdict == "accept" and arch == "sm_80" and "f8e" in case.dtype:
            assert gpu.kind == "reject" and gpu.code == "SK004" and SM_80_FP8_RULE in gpu.detail, (case.name, gpu)
            continue
        assert gpu.kind == verdict, f"{case.name} on {arch}: CPU {cpu}, GPU {gpu}\n{case.source}"
        if verdict == "reject":
            assert (gpu.code, gpu.where) == (cpu.code, cpu.where), f"{case.name}: CPU {cpu} but GPU {gpu}"
        if case.trap:
            assert "trap;" in gpu.detail, f"{case.name}: no trap in the PTX for {arch}"


@pytest.mark.parametrize("case", TILE_SAMPLE, ids=[c.name for c in TILE_SAMPLE])
def test_generated_tile_kernel_cpu_and_gpu_agree(case: Case) -> None:
    _check(case, ("sm_90a", "sm_80"))


@pytest.mark.parametrize("case", SIMT_SAMPLE, ids=[c.name for c in SIMT_SAMPLE])
def test_generated_simt_kernel_cpu_and_gpu_agree(case: Case) -> None:
    _check(case, ("sm_90", "sm_80"))
