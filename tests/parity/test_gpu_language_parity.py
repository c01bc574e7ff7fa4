"""On the GPU: the generated language (`language_generator`) gives the CPU executor's values.

For each case both executors run the same inputs; they must reach the same verdict (accept, or refuse with the
same SK code and location, or trap) and, where both run, agree exactly for integers, bools, data movement and
correctly rounded float ops, and within the case's documented bound otherwise (docs/numerics.md).  Trap cases
run in subprocesses (a trap ends the CUDA context).  `SAFEKERNELS_PARITY_GPU_PER_OP` (default 24) caps the cases
per op; `SAFEKERNELS_PARITY_LONG=1` runs all of them.

Run on the device machine: `PYTHONPATH=src:. python3 -m pytest -m gpu tests/parity`.  Imports neither libcst
nor mypy.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from language_generator import Case, coverage, sample, simt_cases, tile_cases
from language_runner import assert_values_agree, run_simt, run_tile

import safekernels as sk

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
PER_OP = int(os.environ.get("SAFEKERNELS_PARITY_GPU_PER_OP", "24"))
TILE = sample([c for c in tile_cases() if not c.trap], per_op=PER_OP)
SIMT = sample(simt_cases(), per_op=PER_OP)
TRAPS = [c for c in tile_cases() if c.trap]
_CONTEXT_LOST: list[str] = []


@pytest.fixture(autouse=True)
def _stop_after_a_fault() -> None:
    if _CONTEXT_LOST:
        pytest.skip(f"the CUDA context was lost in {_CONTEXT_LOST[0]}")


def test_print_what_the_gpu_run_covers() -> None:
    both = TILE + SIMT
    print(f"\nGPU parity run: {coverage(TILE)} tile, {coverage(SIMT)} SIMT, {len(TRAPS)} trap forms")
    assert len(both) > 500


def _check(case: Case) -> None:
    from safekernels.errors import DeviceError

    run = run_tile if case.track == "tile" else run_simt
    want = run(case, sk.Device.cpu())
    if want.kind == "trap":
        pytest.skip(f"the CPU executor traps ({want.detail}): not run on the GPU")
    try:
        got = run(case, sk.Device(0))
    except DeviceError:
        _CONTEXT_LOST.append(case.name)
        raise
    if got.kind == "trap":  # the GPU context is gone
        _CONTEXT_LOST.append(case.name)
    assert got.kind == want.kind, f"{case.name}: CPU {want}, GPU {got}\n{case.source}"
    if want.kind == "reject":
        assert (got.code, got.where) == (want.code, want.where), f"{case.name}: CPU {want}, GPU {got}"
        return
    assert_values_agree(case, got, want)


@pytest.mark.parametrize("case", TILE, ids=[c.name for c in TILE])
def test_generated_tile_kernel_gives_the_cpu_values_on_the_gpu(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", SIMT, ids=[c.name for c in SIMT])
def test_generated_simt_kernel_gives_the_cpu_values_on_the_gpu(case: Case) -> None:
    _check(case)


_TRAP_SCRIPT = """
import sys
sys.path.insert(0, {here!r})
import safekernels as sk
from language_generator import tile_cases
from language_runner import run_tile
case = next(c for c in tile_cases() if c.trap and c.shape == {shape!r})
outcome = run_tile(case, sk.Device(0))
print(outcome)
sys.exit(0 if outcome.kind == "trap" else 1)
"""


@pytest.mark.parametrize("case", TRAPS, ids=[c.shape for c in TRAPS])
def test_generated_out_of_range_tile_index_traps_on_the_gpu(case: Case) -> None:
    script = _TRAP_SCRIPT.format(here=str(Path(__file__).parent), shape=case.shape)
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
