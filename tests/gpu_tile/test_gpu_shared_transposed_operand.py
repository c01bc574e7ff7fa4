"""On the GPU (H200): a load read by two matmuls, transposed and plain, served from one shared-memory tile
(tests/tile_codegen/test_shared_transposed_operand.py) gives the bits of the same program with two loads, and
the CPU executor's values within the bf16 rounding of the intermediate.
Run: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import bf16, f32

pytestmark = pytest.mark.gpu

_PATH = Path(__file__).resolve().parents[1] / "tile_codegen" / "test_shared_transposed_operand.py"
_SPEC = importlib.util.spec_from_file_location("shared_transposed_kernels", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
K: Any = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(K)


def _run(kernel: Any, device: Any, q: np.ndarray, k: np.ndarray) -> np.ndarray:
    s = device.new_stream()
    out = tile.zeros((1024, 128), f32, device=device).partition((128, 128))
    qs = tile.from_numpy(q, dtype=bf16, device=device)
    ks = tile.from_numpy(k, dtype=bf16, device=device)
    got, *_ = kernel(out, qs, ks).sync_on(s)
    return got.unpartition().to_numpy(s)  # type: ignore[no-any-return]


def test_one_shared_load_gives_the_two_load_bits_and_the_cpu_values() -> None:
    rng = np.random.default_rng(7)
    q = (rng.standard_normal((1024, 128)) * 0.1).astype(np.float32)
    k = (rng.standard_normal((1024, 128)) * 0.1).astype(np.float32)
    shared = _run(K.one_load, sk.Device(0), q, k)
    separate = _run(K.two_loads, sk.Device(0), q, k)
    np.testing.assert_array_equal(shared, separate)
    want = _run(K.one_load, sk.Device.cpu(), q, k)
    np.testing.assert_allclose(shared, want, rtol=2e-2, atol=2e-2 * float(np.abs(want).max()))
