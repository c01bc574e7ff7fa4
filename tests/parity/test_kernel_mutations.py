"""CI half of the mutation rule (`kernel_mutations`): a fixed sample of mutated kernels of both tracks.

Every mutant either runs (or traps) on the CPU executor and assembles for the GPU, or is refused by both with the
same located SK code; nothing else escapes.  The long runs (`python tests/parity/kernel_mutations.py --cases N`)
and what they found are in docs/numerics.md ("Mutated kernels").
"""

from __future__ import annotations

import pytest
from kernel_mutations import judge, mutants

import safekernels as sk

CPU = sk.Device.cpu()
SAMPLE = [*mutants("tile", 60, seed=2026), *mutants("simt", 40, seed=2026)]


@pytest.mark.parametrize("case", SAMPLE, ids=[f"{c.track}-{i}" for i, c in enumerate(SAMPLE)])
def test_a_mutated_kernel_gets_one_verdict_from_both_executors(case: object) -> None:
    problem = judge(case, CPU)  # type: ignore[arg-type]
    assert not problem, problem
