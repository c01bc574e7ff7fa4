"""On the GPU: `tile.matmul(..., input_precision="tf32")` gives the CPU executor's numbers (same TF32-rounded
inputs; the f32 sums may differ in order, within docs/numerics.md's K-term bound), and it really rounds: its
distance from the exact product is TF32's, not f32's.  Imports neither libcst nor mypy.

Run on the device machine: `PYTHONPATH=src:. python3 -m pytest -m gpu tests/codegen/test_gpu_tf32_matmul.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import safekernels as sk

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf32_kernels as K

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("name", sorted(K.CASES))
def test_gpu_gives_the_cpu_executors_tf32_result(name: str) -> None:
    want = K.run(name, sk.Device.cpu())
    got = K.run(name, sk.Device(0))
    assert got.dtype == want.dtype == np.float32
    assert (np.abs(got.astype(np.float64) - want) <= K.sum_bound(name, want)).all(), name
    assert (np.abs(got.astype(np.float64) - K.reference(name)) <= K.sum_bound(name, want)).all(), name


def test_the_gpus_tf32_is_tf32_and_its_default_is_exact() -> None:
    a, b = K.inputs("tf32_once")
    exact = a.astype(np.float64) @ b.astype(np.float64) + 0.25
    tf32, ieee = K.run("tf32_once", sk.Device(0)), K.run("ieee_once", sk.Device(0))
    assert np.abs(ieee - exact).max() < 64 * 2.0**-24 * np.abs(exact).max()
    assert np.abs(tf32 - exact).max() > 100 * np.abs(ieee - exact).max()
