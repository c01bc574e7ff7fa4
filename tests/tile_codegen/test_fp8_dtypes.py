"""The 8-bit float storage dtypes: exact widening, round-to-nearest-even narrowing that saturates like the
GPU's `cvt.rn.satfinite`, host round trips through tile tensors, and fp8 `tile.matmul` on the CPU executor."""

from __future__ import annotations

import numpy as np
import pytest

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import (
    dtype_of,
    f8_to_f32,
    f8e4m3,
    f8e5m2,
    f32,
    f32_to_f8,
    from_f32,
    is_encoded,
    to_f32,
)


def test_f8_dtype_descriptors() -> None:
    for name in ("f8e4m3", "f8e5m2"):
        dt = dtype_of(name)
        assert dt.bits == 8 and dt.itemsize == 1 and dt.is_float and is_encoded(dt)
    assert dtype_of(np.uint8).name == "u8"  # uint8 arrays stay u8: fp8 is only ever asked for by name


def test_e4m3_known_values() -> None:
    bits = np.array([0x00, 0x01, 0x08, 0x38, 0x7E, 0xFE, 0x80, 0x7F], np.uint8)
    got = f8_to_f32(bits, "f8e4m3")
    np.testing.assert_array_equal(got[:7], [0.0, 2.0**-9, 2.0**-6, 1.0, 448.0, -448.0, -0.0])
    assert np.isnan(got[7])


def test_e5m2_known_values() -> None:
    bits = np.array([0x01, 0x04, 0x3C, 0x7B, 0x7C, 0xFC, 0x7F], np.uint8)
    got = f8_to_f32(bits, "f8e5m2")
    np.testing.assert_array_equal(got[:6], [2.0**-16, 2.0**-14, 1.0, 57344.0, np.inf, -np.inf])
    assert np.isnan(got[6])


@pytest.mark.parametrize("name", ["f8e4m3", "f8e5m2"])
def test_every_finite_pattern_round_trips(name: str) -> None:
    bits = np.arange(256, dtype=np.uint8)
    vals = f8_to_f32(bits, name)
    finite = np.isfinite(vals) & ~((vals == 0) & (bits == 0x80))
    np.testing.assert_array_equal(f32_to_f8(vals[finite], name), bits[finite])


@pytest.mark.parametrize("name", ["f8e4m3", "f8e5m2"])
def test_rounding_is_nearest_even_against_brute_force(name: str) -> None:
    table = f8_to_f32(np.arange(256, dtype=np.uint8), name).astype(np.float64)
    top = 448.0 if name == "f8e4m3" else 57344.0
    x = np.random.default_rng(0).standard_normal(4000) * np.exp2(np.random.default_rng(1).integers(-18, 17, 4000))
    x = np.concatenate([x, [1.0625, 1.1875, -1.0625, 2.0**-10, 3 * 2.0**-10]]).astype(np.float32)
    got = f8_to_f32(f32_to_f8(x, name), name).astype(np.float64)
    cand = table[np.isfinite(table)]
    for xi, gi in zip(x.astype(np.float64), got, strict=True):
        xs = float(np.clip(xi, -top, top))
        d = np.abs(cand - xs)
        best = cand[d == d.min()]
        assert gi in best, (xi, gi, best)
        if len(set(best.tolist())) > 1:  # a tie goes to the even pattern
            assert int(f32_to_f8(np.float32(gi), name)) % 2 == 0


@pytest.mark.parametrize(("name", "top"), [("f8e4m3", 448.0), ("f8e5m2", 57344.0)])
def test_narrowing_saturates_and_keeps_nan(name: str, top: float) -> None:
    got = f8_to_f32(f32_to_f8(np.array([1e6, -1e6, np.inf, -np.inf, np.nan], np.float32), name), name)
    np.testing.assert_array_equal(got[:4], [top, -top, top, -top])
    assert np.isnan(got[4])


def test_dtype_casts_round() -> None:
    assert f8e4m3(3.3) == np.float32(3.25) and f8e5m2(3.3) == np.float32(3.5)
    dt = dtype_of("f8e4m3")
    np.testing.assert_array_equal(to_f32(from_f32([0.3, -17.0], dt), dt), [0.3125, -16.0])


@pytest.mark.parametrize("name", ["f8e4m3", "f8e5m2"])
def test_tensor_round_trip_on_the_cpu(name: str) -> None:
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6)
    stream = sk.Device.cpu().new_stream()
    t = tile.from_numpy(x, dtype=name).sync_on(stream)
    assert t.dtype.name == name and t.shape == (4, 6)
    np.testing.assert_array_equal(t.to_numpy(stream).reshape(4, 6), f8_to_f32(f32_to_f8(x, name), name))


BM, BN, BK = 64, 64, 128  # fp8 matmuls run in the warpgroup form only (docs/tile-compiler.md, target rules)


@tile.kernel
def scaled_fp8_matmul(
    c: tile.Partition[f32], a: tile.Tensor[f8e4m3], bt: tile.Tensor[f8e4m3], sa: f32, sb: f32
) -> None:
    a_tiles = a.partition((BM, BK))
    b_tiles = bt.partition((BN, BK))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((tile.bid(0), k)), tile.transpose(b_tiles.load((tile.bid(1), k))), acc)
    c.store(acc * (sa * sb))


@pytest.mark.parametrize(("m", "n", "k"), [(64, 64, 128), (70, 40, 160), (1, 5, 16)])  # rows of 16-byte multiples
def test_fp8_matmul_with_scales_on_the_cpu_executor(m: int, n: int, k: int) -> None:
    rng = np.random.default_rng(m + n + k)
    a, bt = rng.standard_normal((m, k)) * 4, rng.standard_normal((n, k)) * 4
    stream = sk.Device.cpu().new_stream()
    c = tile.zeros((m, n), f32).partition((BM, BN))
    ta = tile.from_numpy(a, dtype=f8e4m3)
    tb = tile.from_numpy(bt, dtype=f8e4m3)
    c, *_ = scaled_fp8_matmul(c, ta, tb, 0.5, 0.25).sync_on(stream)
    a8, b8 = (f8_to_f32(f32_to_f8(x, "f8e4m3"), "f8e4m3").astype(np.float64) for x in (a, bt))
    np.testing.assert_allclose(c.unpartition().to_numpy(stream), a8 @ b8.T * 0.125, rtol=1e-5, atol=1e-4)


def test_mixed_fp8_matmul_is_a_type_error() -> None:
    from safekernels.tile.ops import TileType, _infer_matmul

    a = TileType((16, 16), dtype_of("f8e4m3"))
    b = TileType((16, 16), dtype_of("f8e5m2"))
    with pytest.raises(TypeError, match="or both f8e4m3 / f8e5m2"):
        _infer_matmul(a, b, TileType((16, 16), dtype_of("f32")))


from safekernels import simt  # noqa: E402
from safekernels.simt import DisjointSlice, Slice, thread  # noqa: E402


@simt.kernel
@simt.launch_contract(block=32, requires=("len(a) >= len(c)",))
def simt_reads_fp8(a: Slice[f8e4m3], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(f32(a[i]) * 2.0)


def test_simt_cpu_executor_refuses_fp8_parameters_like_the_compiler() -> None:
    from ownership_check.diagnostics import DiagnosticError

    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.array([1.5, 2.0, 500.0], np.float32), stream, dtype=f8e4m3)
    c = sk.zeros(3, f32, stream)
    prepared = simt_reads_fp8.prepare(simt.LaunchConfig1D.for_len(3, block=32), dev)
    with pytest.raises(DiagnosticError, match=r"test_fp8_dtypes.py:135:20: SK011 parameter `a`: f8e4m3"):
        simt_reads_fp8.launch(prepared, stream, a, c)


def test_simt_gpu_compiler_refuses_fp8_parameters_with_a_located_error() -> None:
    from ownership_check.diagnostics import DiagnosticError
    from safekernels.codegen.pipeline import compile_simt_kernel

    with pytest.raises(DiagnosticError, match=r"SK011 parameter `a`: f8e4m3 is a storage type of tile kernels"):
        compile_simt_kernel(simt_reads_fp8, arch="sm_90", use_cache=False)
