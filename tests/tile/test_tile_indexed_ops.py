"""The tile ops added for issue 13 on the CPU executor: integer operators, scan/cumsum, argmax/argmin, gather,
scatter, the atomics into `AtomicTensor` outputs and `@tile.function` helpers, each against numpy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from tile_harness import cpu_stream, whole_tile

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError
from safekernels import tile
from safekernels.dtypes import f16, f32, i32, i64, u32
from safekernels.errors import BorrowError, KernelTrapError
from safekernels.tile import AtomicTensor, Partition, Tensor

RNG = np.random.default_rng(7)


@pytest.mark.parametrize(
    ("op", "ref"),
    [
        (lambda a, b: a // b, np.floor_divide),
        (lambda a, b: a % b, np.mod),
        (lambda a, b: a & b, np.bitwise_and),
        (lambda a, b: a | b, np.bitwise_or),
        (lambda a, b: a ^ b, np.bitwise_xor),
    ],
)
def test_integer_operators_follow_python_floor_rules(op: Any, ref: Any) -> None:
    a = RNG.integers(-50, 50, (4, 16)).astype(np.int32)
    b = np.where(a % 3 == 0, -7, 5).astype(np.int32)
    both = np.concatenate([a, b])
    combine = tile.function(op)
    got = whole_tile(lambda t: combine(_half(t, 0), _half(t, 1)), both, (4, 16), i32)
    np.testing.assert_array_equal(got, ref(a, b))


@tile.function
def _half(t: Any, which: int) -> Any:
    """Rows `4 * which .. 4 * which + 3` of an (8, 16) tile."""
    x = tile.reshape(t, (2, 4, 16))
    return tile.sum(tile.where(tile.reshape(tile.iota(2, i32), (2, 1, 1)) == which, x, 0), axis=0)


def test_shifts_define_oversized_amounts_and_invert() -> None:
    a = np.array([1, -8, 255, -1, 7, 3, 1 << 30, -(1 << 31)], dtype=np.int32)
    got = whole_tile(lambda t: (t << 1) ^ (t >> 2) ^ ~t, a, (8,), i32)
    np.testing.assert_array_equal(got, (a << 1) ^ (a >> 2) ^ ~a)
    big = whole_tile(lambda t: (t << 40) + (t >> 33), a, (8,), i32)
    np.testing.assert_array_equal(big, np.where(a < 0, -1, 0).astype(np.int32))
    u = np.array([1, 2, 0xFFFFFFFF, 8], dtype=np.uint32)
    np.testing.assert_array_equal(whole_tile(lambda t: t >> 1, u, (4,), u32), u >> 1)


def test_integer_division_by_zero_traps_and_min_div_minus_one_wraps() -> None:
    with pytest.raises(KernelTrapError, match="division or remainder by zero"):
        whole_tile(lambda t: t // (t - t), np.arange(4, dtype=np.int32), (4,), i32)
    with pytest.raises(KernelTrapError):
        whole_tile(lambda t: t % 0, np.arange(4, dtype=np.int32), (4,), i32)
    m = np.array([-(1 << 31), 5], dtype=np.int32)
    np.testing.assert_array_equal(whole_tile(lambda t: t // -1, m, (2,), i32), np.array([-(1 << 31), -5]))


def test_integer_operators_refuse_float_tiles() -> None:
    with pytest.raises(DiagnosticError, match="SK023 `//` needs integer tiles"):
        whole_tile(lambda t: t // t, np.ones(4, np.float32), (4,), f32)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("op", ["add", "max", "min"])
def test_scan_matches_numpy(axis: int, op: str) -> None:
    x = RNG.standard_normal((8, 32)).astype(np.float32)
    got = whole_tile(lambda t: tile.scan(t, axis=axis, op=op), x, (8, 32), f32)
    accumulate = {"max": np.maximum, "min": np.minimum}
    want = np.cumsum(x, axis) if op == "add" else accumulate[op].accumulate(x, axis)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_cumsum_of_f16_accumulates_in_f32_and_bool_counts_in_i64() -> None:
    x = np.full(256, 0.1, dtype=np.float16)
    got = whole_tile(lambda t: tile.cumsum(t), x, (256,), f16)
    np.testing.assert_array_equal(got, np.cumsum(x.astype(np.float32)).astype(np.float16))
    b = np.array([1, 0, 1, 1], dtype=np.int32)
    counted = whole_tile(lambda t: tile.cumsum(t > 0), b, (4,), i64)
    np.testing.assert_array_equal(counted, [1, 1, 2, 3])


def test_argmax_argmin_first_occurrence_and_nan() -> None:
    x = np.array([[1, 5, 5, 2], [7, 0, 0, 7], [3, 3, 3, 3]], dtype=np.float32)
    np.testing.assert_array_equal(whole_tile(lambda t: tile.argmax(t, axis=1), x, (3,), i32), [1, 0, 0])
    np.testing.assert_array_equal(whole_tile(lambda t: tile.argmin(t, axis=0), x, (4,), i32), [0, 1, 1, 0])
    np.testing.assert_array_equal(
        whole_tile(lambda t: tile.argmax(t, axis=0, keepdims=True), x, (1, 4), i32), [[1, 0, 0, 1]]
    )
    flat = whole_tile(lambda t: tile.reshape(tile.argmin(t), (1,)), x, (1,), i32)
    assert flat[0] == 5
    nan = np.array([1.0, np.nan, 3.0, np.nan], dtype=np.float32)
    assert whole_tile(lambda t: tile.reshape(tile.argmax(t), (1,)), nan, (1,), i32)[0] == 1


@tile.kernel
def gather_rows(out: Partition[f32], table: Tensor[f32], ids: Tensor[i32]) -> None:
    idx = tile.reshape(ids.load((tile.bid(0),), (8,)), (8, 1))
    cols = tile.reshape(tile.iota(4, i32), (1, 4))
    out.store(tile.gather(table, (idx, cols), mask=idx != 3, other=-1.0))


def test_gather_reads_indexed_elements_masks_and_pads() -> None:
    table = RNG.standard_normal((10, 4)).astype(np.float32)
    ids = np.array([0, 3, 9, 12, -1, 2, 2, 5] * 2, dtype=np.int32)
    stream = cpu_stream()
    out, _t, _i = gather_rows(
        tile.zeros((16, 4), f32).partition((8, 4)), tile.from_numpy(table), tile.from_numpy(ids)
    ).sync_on(stream)
    got = out.unpartition().to_numpy(stream)
    safe = np.clip(ids, 0, 9)
    want = np.where(((ids >= 0) & (ids < 10) & (ids != 3))[:, None], table[safe], -1.0)
    np.testing.assert_array_equal(got, want)


@tile.kernel
def reverse_within_tile(z: Partition[i32], x: Tensor[i32]) -> None:
    t = tile.load_like(x, z)
    base = tile.bid(0) * 8
    pos = tile.iota(8, i32) + base
    tile.scatter(z, (base + 7 - tile.iota(8, i32),), t, mask=pos < 14)
    tile.scatter(z, (pos + 8,), t)  # the next block's tile: dropped


def test_scatter_writes_only_the_blocks_own_tile() -> None:
    x = np.arange(16, dtype=np.int32) + 100
    stream = cpu_stream()
    z, _x = reverse_within_tile(tile.full((16,), -5, i32).partition((8,)), tile.from_numpy(x)).sync_on(stream)
    got = z.unpartition().to_numpy(stream)
    want = np.concatenate([x[:8][::-1], [-5, -5, 113, 112, 111, 110, 109, 108]])
    np.testing.assert_array_equal(got, want)


@tile.kernel
def histogram(z: Partition[i32], counts: AtomicTensor[i32], top: AtomicTensor[f32], x: Tensor[i32]) -> None:
    k = tile.load_like(x, z)
    tile.atomic_add(counts, k % 5, 1, mask=k >= 0)
    tile.atomic_max(top, (tile.bid(0),), tile.max(k).astype(f32))
    tile.atomic_min(top, (tile.num_blocks(0) + tile.bid(0) * 0,), k.astype(f32))
    z.store(k)


def test_atomics_accumulate_across_tile_blocks() -> None:
    x = RNG.integers(-3, 40, 64).astype(np.int32)
    stream = cpu_stream()
    _z, counts, top, _x = histogram(
        tile.zeros((64,), i32).partition((16,)),
        tile.zeros((5,), i32),
        tile.full((5,), 0.0, f32),
        tile.from_numpy(x),
    ).sync_on(stream)
    np.testing.assert_array_equal(counts.to_numpy(stream), np.bincount(x[x >= 0] % 5, minlength=5))
    got = top.to_numpy(stream)
    np.testing.assert_array_equal(got[:4], np.maximum(x.reshape(4, 16).max(axis=1), 0))
    assert got[4] == min(0, x.min())


def test_atomic_tensor_is_an_exclusive_output() -> None:
    stream = cpu_stream()
    shared = tile.zeros((5,), i32).shared()
    with pytest.raises(BorrowError, match="AtomicTensor"):
        histogram(
            tile.zeros((64,), i32).partition((16,)), shared, tile.zeros((5,), f32), tile.zeros((64,), i32)
        ).sync_on(stream)
    buf = sk.to_device(np.zeros(64, np.int32), stream)
    with pytest.raises(BorrowError, match="view of another value"):
        histogram(
            tile.zeros((64,), i32).partition((16,)), buf.view(0, 5), tile.zeros((5,), f32), buf
        ).sync_on(stream)


def test_atomics_and_scatter_refuse_the_wrong_parameter_kind() -> None:
    @tile.kernel
    def bad(z: Partition[f32], x: Tensor[f32]) -> None:
        tile.atomic_add(x, (tile.iota(4, i32),), 1.0)
        z.store(tile.load_like(x, z))

    with pytest.raises(DiagnosticError, match=r"SK006 tile\.atomic_add takes an AtomicTensor parameter"):
        bad(tile.zeros((8,), f32).partition((8,)), tile.zeros((8,), f32)).sync_on(cpu_stream())


@tile.function
def softplus_scaled(t: Any, scale: float = 2.0) -> Any:
    return tile.log(1.0 + tile.exp(t)) * scale


@tile.function
def twice_softplus(t: Any) -> Any:
    return softplus_scaled(t) + softplus_scaled(t, scale=0.0)


def test_tile_functions_are_plain_calls_on_the_cpu() -> None:
    x = RNG.standard_normal(32).astype(np.float32)
    got = whole_tile(lambda t: twice_softplus(t), x, (32,), f32)
    np.testing.assert_allclose(got, np.log1p(np.exp(x)) * 2, rtol=1e-6)
    with pytest.raises(TypeError, match=r"only valid inside a @tile\.kernel body"):
        softplus_scaled(1.0)


@tile.kernel
def scalar_remainder(z: Partition[f32], x: Tensor[f32], n: i32) -> None:
    q = tile.bid(0) % n
    z.store(tile.load_like(x, z) + float(q))


def test_scalar_integer_division_by_zero_traps_as_on_the_gpu() -> None:
    stream = cpu_stream()
    with pytest.raises(KernelTrapError, match="integer division or remainder by zero in tile block"):
        scalar_remainder(tile.zeros((8,), f32).partition((4,)), tile.zeros((8,), f32), 0).sync_on(stream)
    z, _x, _n = scalar_remainder(tile.zeros((8,), f32).partition((4,)), tile.ones((8,), f32), 3).sync_on(stream)
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), [1, 1, 1, 1, 2, 2, 2, 2])
