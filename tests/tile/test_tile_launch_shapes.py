"""Launch-time shape checks (`ShapeError`: parameter, expected, actual), `Dims` binding, padding, traps."""

from __future__ import annotations

from typing import Annotated

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tile_harness import cpu_stream

from ownership_check.diagnostics import DiagnosticError
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.errors import KernelTrapError, ShapeError
from safekernels.tile import Dims, Partition, Tensor

W = 64


@tile.kernel
def rowcopy(
    out: Annotated[Partition[f32], Dims("BM", "BN")], x: Annotated[Tensor[f32], Dims(-1, "BN")]
) -> None:
    out.store(tile.load_like(x, out))


@tile.kernel
def fixed(out: Annotated[Partition[f32], Dims(8, W)], x: Annotated[Tensor[f32], Dims(-1, W)]) -> None:
    out.store(tile.load_like(x, out))


def test_dims_mismatch_names_parameter_expected_and_actual() -> None:
    out = tile.zeros((16, 64), f32).partition((8, 64))
    with pytest.raises(ShapeError) as info:
        fixed(out, tile.zeros((16, 32), f32))
    message = str(info.value)
    assert message == (
        "fixed: parameter `x` shape dim 1: expected 64, got 32 (shape (16, 32), declared Dims(-1, 64))"
    )


def test_dims_on_partition_describe_the_tile_shape() -> None:
    with pytest.raises(ShapeError, match=r"parameter `out` tile shape dim 1: expected 64, got 32"):
        fixed(tile.zeros((16, 64), f32).partition((8, 32)), tile.zeros((16, 64), f32))


def test_dims_rank_mismatch() -> None:
    with pytest.raises(
        ShapeError, match=r"parameter `x` expects a rank-2 shape Dims\(-1, 64\), got shape \(64,\)"
    ):
        fixed(tile.zeros((16, 64), f32).partition((8, 64)), tile.zeros((64,), f32))


def test_named_dims_bind_from_the_partition_tile_shape() -> None:
    stream = cpu_stream()
    data = np.arange(20 * 32, dtype=np.float32).reshape(20, 32)
    out, _x = rowcopy(tile.zeros((20, 32), f32).partition((8, 32)), tile.from_numpy(data)).sync_on(stream)
    np.testing.assert_array_equal(out.unpartition().to_numpy(stream), data)
    with pytest.raises(ShapeError) as info:
        rowcopy(tile.zeros((20, 32), f32).partition((8, 16)), tile.zeros((20, 32), f32))
    assert str(info.value) == (
        "rowcopy: parameter `x` shape dim 1: expected BN = 16 (bound by the tile shape of `out`), got 32 "
        "(shape (20, 32), declared Dims(-1, 'BN'))"
    )


def test_shape_error_leaves_arguments_usable() -> None:
    out = tile.zeros((16, 64), f32).partition((8, 64))
    bad = tile.zeros((16, 32), f32)
    with pytest.raises(ShapeError):
        fixed(out, bad)
    good = tile.zeros((16, 64), f32)
    out, good = fixed(out, good).sync_on(cpu_stream())  # `out` was not moved by the failed launch
    assert out.shape == (16, 64)


def test_dims_checked_when_the_op_runs_if_not_known_before() -> None:
    x = tile.zeros((16, 32), f32).then(lambda t: t)  # `then` hides the static shape
    op = fixed(tile.zeros((16, 64), f32).partition((8, 64)), x)
    with pytest.raises(ShapeError, match=r"parameter `x` shape dim 1: expected 64, got 32"):
        op.sync_on(cpu_stream())


def test_partitions_must_agree_on_the_grid() -> None:
    @tile.kernel
    def two(a: Partition[f32], b: Partition[f32]) -> None:
        a.store(tile.zeros((4,), f32))
        b.store(tile.zeros((4,), f32))

    with pytest.raises(
        ShapeError, match=r"launch grid \(3,\) of partition `b` does not match the grid \(4,\) of "
    ):
        two(tile.zeros((16,), f32).partition((4,)), tile.zeros((12,), f32).partition((4,)))


def test_partition_and_kind_errors() -> None:
    with pytest.raises(
        ShapeError, match=r"tile shape \(4, 4\) has rank 2, the tensor shape \(16,\) has rank 1"
    ):
        tile.zeros((16,), f32).partition((4, 4))
    with pytest.raises(ShapeError, match="at most 3 axes"):
        tile.zeros((2, 2, 2, 2), f32).partition((1, 1, 1, 1))
    with pytest.raises(ShapeError, match="tuple of positive ints"):
        tile.zeros((16,), f32).partition((0,))
    with pytest.raises(
        TypeError, match=r"parameter `out` is a Partition .*pass tensor.partition\(tile_shape\)"
    ):
        fixed(tile.zeros((16, 64), f32), tile.zeros((16, 64), f32))
    with pytest.raises(TypeError, match=r"parameter `x` is a shared Tensor input"):
        fixed(tile.zeros((16, 64), f32).partition((8, 64)), tile.zeros((16, 64), f32).partition((8, 64)))
    with pytest.raises(TypeError, match=r"fixed\(\) takes 2 arguments \(out, x\), got 1"):
        fixed(tile.zeros((16, 64), f32).partition((8, 64)))


def test_kernel_without_partition_is_refused() -> None:
    def no_output(x: Tensor[f32]) -> None:
        pass

    with pytest.raises(TypeError, match="has no Partition parameter"):
        tile.kernel(no_output)


def test_unsupported_parameter_annotation() -> None:
    def bad(out: Partition[f32], x: list[int]) -> None:
        pass

    with pytest.raises(TypeError, match=r"parameter `x: list\[int\]` is not a tile parameter"):
        tile.kernel(bad)


@pytest.mark.parametrize(("n", "t"), [(10, 4), (13, 8), (7, 16), (100, 7)])
def test_loads_pad_with_zeros_and_stores_are_masked(n: int, t: int) -> None:
    @tile.kernel
    def probe(out: Partition[f32], x: Tensor[f32], seen: Partition[i32]) -> None:
        tx = tile.load_like(x, out)
        out.store(tx * 2.0)
        seen.store(tile.sum((tx == 0.0).astype(i32), axis=0, keepdims=True))

    stream = cpu_stream()
    grid = -(-n // t)
    data = np.arange(1, n + 1, dtype=np.float32)
    out, _x, seen = probe(
        tile.full((n,), -1.0, f32).partition((t,)),
        tile.from_numpy(data),
        tile.zeros((grid,), i32).partition((1,)),
    ).sync_on(stream)
    np.testing.assert_array_equal(
        out.unpartition().to_numpy(stream), data * 2
    )  # nothing written past the edge
    zeros_seen = seen.unpartition().to_numpy(stream)
    assert zeros_seen[:-1].tolist() == [0] * (grid - 1)
    assert zeros_seen[-1] == grid * t - n  # the last tile's padding is zeros


def test_out_of_range_tile_index_traps_naming_kernel_index_and_count() -> None:
    @tile.kernel
    def reach(out: Partition[f32], x: Tensor[f32]) -> None:
        out.store(x.load((tile.bid(0) + 1,), (4,)))

    op = reach(tile.zeros((8,), f32).partition((4,)), tile.zeros((8,), f32))
    with pytest.raises(KernelTrapError) as info:
        op.sync_on(cpu_stream())
    assert "kernel `reach`: tile index (2,) out of bounds for `x`" in str(info.value)
    assert "(2,) tiles" in str(info.value)


def test_store_shape_and_dtype_are_checked() -> None:
    @tile.kernel
    def wrong_shape(out: Partition[f32]) -> None:
        out.store(tile.zeros((3,), f32))

    @tile.kernel
    def wrong_dtype(out: Partition[f32]) -> None:
        out.store(tile.zeros((4,), i32))

    # the CPU executor refuses what the GPU compiler refuses, with the same SK diagnostic (tests/parity)
    with pytest.raises(
        DiagnosticError, match=r"SK022 out.store: tile shape \(3,\) does not match the partition's tile shape"
    ):
        wrong_shape(tile.zeros((8,), f32).partition((4,))).sync_on(cpu_stream())
    with pytest.raises(DiagnosticError, match=r"SK022 .*tile dtype i32 does not match the partition's dtype f32"):
        wrong_dtype(tile.zeros((8,), f32).partition((4,))).sync_on(cpu_stream())


def test_input_partitions_are_read_only_and_need_an_index() -> None:
    @tile.kernel
    def misuse(out: Partition[f32], x: Tensor[f32]) -> None:
        x.partition((4,)).load()

    with pytest.raises(DiagnosticError, match=r"SK006 .*read-only partition of an input; pass a tile index"):
        misuse(tile.zeros((8,), f32).partition((4,)), tile.zeros((8,), f32)).sync_on(cpu_stream())


def test_kernel_only_methods_raise_on_the_host() -> None:
    t = tile.zeros((8,), f32).sync_on(cpu_stream())
    with pytest.raises(TypeError, match=r"Tensor.load is only valid inside a @tile.kernel body"):
        t.load((0,), (4,))
    p = t.partition((4,))
    with pytest.raises(TypeError, match=r"Partition.store is only valid inside a @tile.kernel body"):
        p.store(tile.Tile(np.zeros(4, np.float32), f32.__dtype__))


def test_scalar_parameters_are_cast() -> None:
    @tile.kernel
    def scale(out: Partition[f32], x: Tensor[f32], alpha: f32, n: int) -> None:
        out.store(tile.load_like(x, out) * alpha + float(n))

    stream = cpu_stream()
    out, _x, alpha, n = scale(tile.zeros((6,), f32).partition((4,)), tile.ones((6,), f32), 2.5, 1).sync_on(
        stream
    )
    assert isinstance(alpha, np.float32) and n == 1
    np.testing.assert_array_equal(out.unpartition().to_numpy(stream), np.full(6, 3.5, np.float32))
    with pytest.raises(TypeError, match="parameter `alpha` is a scalar, got str"):
        scale(tile.zeros((6,), f32).partition((4,)), tile.ones((6,), f32), "2.5", 1)


def test_dims_entries_are_validated() -> None:
    assert repr(Dims(-1, 64, "BN")) == "Dims(-1, 64, 'BN')"
    for bad in (0, -2, 1.5, "not a name", True):
        with pytest.raises(TypeError, match="Dims entries are -1, positive ints or names"):
            Dims(bad)  # type: ignore[arg-type]


@tile.kernel
def add2d(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(1, 40),
    cols=st.integers(1, 40),
    tile_rows=st.integers(1, 16),
    tile_cols=st.integers(1, 16),
)
def test_any_shape_and_tile_shape_gives_numpy_result(
    rows: int, cols: int, tile_rows: int, tile_cols: int
) -> None:
    rng = np.random.default_rng(rows * 100 + cols)
    a = rng.standard_normal((rows, cols)).astype(np.float32)
    b = rng.standard_normal((rows, cols)).astype(np.float32)
    stream = cpu_stream()
    z = tile.full((rows, cols), np.nan, f32).partition((tile_rows, tile_cols))
    assert z.meta.tile_shape == (tile_rows, tile_cols)
    z, _x, _y = add2d(z, tile.from_numpy(a), tile.from_numpy(b)).sync_on(stream)
    assert z.grid == (-(-rows // tile_rows), -(-cols // tile_cols))
    np.testing.assert_array_equal(z.to_numpy(stream), a + b)  # every element written exactly as numpy
