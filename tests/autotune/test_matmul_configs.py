"""The shipped GEMM tuning space: `matmul_configs()` builds one variant per CTA tile of a `tile.matmul` kernel."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from safekernels.autotune import MATMUL_TILES, Config, matmul_configs

ROOT = Path(__file__).resolve().parents[2]


def test_configs_name_the_kernels_constants_in_the_shipped_order() -> None:
    configs = matmul_configs("GBM", "GBN", "GBK")
    assert [tuple(c.constants[k] for k in ("GBM", "GBN", "GBK")) for c in configs] == list(MATMUL_TILES)
    assert all(isinstance(c, Config) and c.num_warps is None for c in configs)
    assert (128, 256, 64) in MATMUL_TILES and (128, 128, 64) in MATMUL_TILES  # Hopper: large and short-K tiles
    assert len(set(MATMUL_TILES)) == len(MATMUL_TILES)


@pytest.mark.parametrize("names", [("BM", "BM", "BK"), ("BM", "BN", "not a name")])
def test_bad_constant_names_are_refused(names: tuple[str, str, str]) -> None:
    with pytest.raises(ValueError, match="matmul_configs"):
        matmul_configs(*names)


def test_the_example_ships_the_tuned_kernel_with_every_default_tile() -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import matmul_tile
    finally:
        sys.path.remove(str(ROOT / "examples"))
    tuned = matmul_tile.matmul_tuned
    assert tuned.base is matmul_tile.matmul and len(tuned.variants) == len(MATMUL_TILES)
    shapes = [shape["c"] for shape in tuned.tile_shapes]
    assert shapes == [(bm, bn) for bm, bn, _ in MATMUL_TILES]  # each variant's output tile follows its config


def test_the_tuned_example_runs_and_agrees_on_the_cpu_executor() -> None:
    import numpy as np

    import safekernels as sk
    from safekernels import tile
    from safekernels.dtypes import f32

    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import matmul_tile
    finally:
        sys.path.remove(str(ROOT / "examples"))
    device = sk.Device.cpu()
    stream = device.new_stream()
    rng = np.random.default_rng(4)
    a = rng.standard_normal((40, 24)).astype(np.float16)
    b = rng.standard_normal((24, 16)).astype(np.float16)
    c = tile.zeros((40, 16), f32, device=device).partition((matmul_tile.BM, matmul_tile.BN))
    tuned = matmul_tile.matmul_tuned
    c, _, _ = tuned(c, tile.from_numpy(a, device=device), tile.from_numpy(b, device=device)).sync_on(stream)
    assert c.tile_shape == (matmul_tile.BM, matmul_tile.BN)  # handed back with the caller's tile shape
    got = c.unpartition().to_numpy(stream)
    np.testing.assert_allclose(got, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-4, atol=1e-3)
    assert tuned.tune_stats.tunings + tuned.tune_stats.disk_hits >= 1
