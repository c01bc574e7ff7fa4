"""On the GPU (H200): a matmul reading A as `tile.transpose(load)` (MN-major) and B from registers, added into an
`AtomicTensor` from the accumulator's registers (tests/tile_codegen/test_wgmma_operands.py), gives the CPU
executor's values within the bf16 rounding of the intermediate scores; a B computed elementwise (the `Blocked`
layout) staged for warpgroup MMA gives its values too.
Run: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safekernels as sk

pytestmark = pytest.mark.gpu

_PATH = Path(__file__).resolve().parents[1] / "tile_codegen" / "test_wgmma_operands.py"
_SPEC = importlib.util.spec_from_file_location("wgmma_operand_kernels", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
K: Any = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(K)


@pytest.mark.parametrize("seed", [3, 11])
def test_transposed_a_and_register_b_match_the_cpu_executor(seed: int) -> None:
    k, q = K.inputs(seed)
    got_out, got_acc = K.run(sk.Device(0), k, q)
    want_out, want_acc = K.reference(k, q)
    cpu_out, cpu_acc = K.run(sk.Device.cpu(), k, q)
    for got, cpu, want in ((got_out, cpu_out, want_out), (got_acc, cpu_acc, want_acc)):
        assert np.isfinite(got).all()
        assert K._rel(got, want) < 5e-3  # bf16 scores: a rounding tie may fall the other way
        assert K._rel(got, cpu) < 5e-3


def test_computed_b_matches_the_cpu_executor() -> None:
    k, q = K.inputs(5)
    a, b = k[:256], q[:128, :64]
    got = K.run_computed_b(sk.Device(0), a, b)
    want = K.run_computed_b(sk.Device.cpu(), a, b)
    assert np.isfinite(got).all() and K._rel(got, want) < 1e-5  # the same bf16 products, f32 sums
