"""Every catalog kernel on the CPU executor against its independent numpy reference, outputs poisoned first.

The GPU suite (tests/gpu) runs the same cases on the device against the same references; here the references
themselves are checked, on every CI machine, so a wrong reference cannot hide behind a missing GPU.  Outputs start
as NaN / 0x5A bytes, so an element a kernel never writes fails instead of passing as zero.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "codegen"))
from conftest_helpers import load  # noqa: E402

CATALOG: Any = load(ROOT / "tests/codegen/kernels_catalog.py", "kernels_catalog")
SIZES = (1, 31, 300)


def run_case(case: Any, host: list[Any], n: int, device: sk.Device) -> list[np.ndarray]:
    stream = device.new_stream()
    args = [sk.to_device(a, stream, device=device) if isinstance(a, np.ndarray) else a for a in host]
    if case.domain == 2:
        width = host[2]
        config: Any = simt.LaunchConfig2D.for_shape((n + width - 1) // width, width)
    else:
        config = simt.LaunchConfig1D.for_len(n, block=CATALOG.BLOCK)
    case.kernel.launch(case.kernel.prepare(config, device), stream, *args)
    return [args[i].to_numpy(stream) for i in case.outputs]


@pytest.mark.parametrize("name", sorted(CATALOG.CASES))
@pytest.mark.parametrize("n", SIZES)
def test_cpu_executor_matches_numpy_reference(name: str, n: int) -> None:
    case = CATALOG.CASES[name]
    host = case.make_args(n, np.random.default_rng(zlib.crc32(f"{name}/{n}".encode())))
    want = case.reference(host)
    got = run_case(case, CATALOG.poison_outputs(case, host), n, sk.Device.cpu())
    CATALOG.assert_matches(case, got, want, f"{name} n={n}")


def test_every_case_poisons_at_least_one_output() -> None:
    for name, case in CATALOG.CASES.items():
        host = case.make_args(4, np.random.default_rng(0))
        poisoned = CATALOG.poison_outputs(case, host)
        changed = [i for i in case.outputs if not np.array_equal(poisoned[i], host[i], equal_nan=True)]
        assert changed, name


def test_an_unwritten_element_fails_the_comparison() -> None:
    case = CATALOG.CASES["vecadd"]
    host = case.make_args(8, np.random.default_rng(1))
    want = case.reference(host)
    got = [want[0].copy()]
    got[0][3] = np.nan
    with pytest.raises(AssertionError, match=r"1 of 8 elements differ"):
        CATALOG.assert_matches(case, got, want, "vecadd")
