"""On the GPU (H200): bool scalars in arithmetic, scalar `min`/`max`/`abs` (NaN and the sign of zero included)
and `z.tile_shape` give the CPU executor's values (tests/tile_codegen/scalar_builtin_kernels.py).
Run: `PYTHONPATH=src:. python3 -m pytest tests/gpu_tile -m gpu`.
"""

from __future__ import annotations

import importlib
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safekernels as sk

pytestmark = pytest.mark.gpu

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tile_codegen"))
K: Any = importlib.import_module("scalar_builtin_kernels")  # the kernels' module, shared with the CPU tests

CPU = sk.Device.cpu()


def _same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype
    if got.dtype.kind == "f":
        assert (np.isnan(got) == np.isnan(want)).all(), (got, want)
        assert (np.signbit(got) == np.signbit(want))[~np.isnan(want)].all(), (got, want)
        got, want = got[~np.isnan(got)], want[~np.isnan(want)]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("length", [8, 24, 64])
def test_bool_arithmetic_bound(length: int) -> None:
    _same(K.run_clamp_steps(sk.Device(0), length), K.run_clamp_steps(CPU, length))


@pytest.mark.parametrize(("n", "s"), [(0, 0.0), (3, -2.5), (7, 4.0), (-4, 0.5)])
def test_bool_scalars_in_arithmetic(n: int, s: float) -> None:
    for g, w in zip(K.run_bool_arith(sk.Device(0), n, s), K.run_bool_arith(CPU, n, s), strict=True):
        _same(g, w)


@pytest.mark.parametrize(("n", "length"), [(0, 8), (5, 40), (-3, 16), (20, 32)])
def test_int_min_max_abs(n: int, length: int) -> None:
    _same(K.run_int_extremes(sk.Device(0), n, length), K.run_int_extremes(CPU, n, length))


@pytest.mark.parametrize(
    ("s", "t", "n"),
    [(-2.5, 1.5, 3), (math.nan, 1.0, 0), (1.0, math.nan, 1), (0.0, -0.0, 2), (-0.0, 0.0, 2), (-math.inf, 2.0, 4)],
)
def test_float_min_max_abs(s: float, t: float, n: int) -> None:
    got, want = K.run_float_extremes(sk.Device(0), s, t, n), K.run_float_extremes(CPU, s, t, n)
    for g, w in zip(got, want, strict=True):
        _same(g, w)


@pytest.mark.parametrize("tile_rows", [1, 2])
def test_tile_shape(tile_rows: int) -> None:
    _same(K.run_copy_rows(sk.Device(0), tile_rows), K.run_copy_rows(CPU, tile_rows))
