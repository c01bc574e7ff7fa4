"""The op table through real kernels: elementwise, math, reductions, shape ops, matmul, creation, dtypes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from tile_harness import cpu_stream, whole_tile

from ownership_check.diagnostics import DiagnosticError
from safekernels import tile
from safekernels.dtypes import bf16, bf16_to_f32, f16, f32, f32_to_bf16, i32
from safekernels.errors import ShapeError
from safekernels.tile import OPS, Partition, Tensor, Tile

RNG = np.random.default_rng(1234)


def rand(*shape: int, dtype: Any = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


# -- elementwise and math ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fn", "want"),
    [
        ("add", lambda t: t + t * 2.0, lambda a: a + a * 2),
        ("sub", lambda t: 1.0 - t, lambda a: 1 - a),
        ("mul", lambda t: t * t, lambda a: a * a),
        ("div", lambda t: t / 4.0, lambda a: a / 4),
        ("rdiv", lambda t: 2.0 / (tile.exp(t) + 1.0), lambda a: 2 / (np.exp(a) + 1)),
        ("neg", lambda t: -t, lambda a: -a),
        ("exp", tile.exp, np.exp),
        ("exp2", tile.exp2, np.exp2),
        ("log", lambda t: tile.log(tile.exp(t)), lambda a: a),
        ("sqrt", lambda t: tile.sqrt(t * t), np.abs),
        ("rsqrt", lambda t: tile.rsqrt(t * t + 1.0), lambda a: 1 / np.sqrt(a * a + 1)),
        ("tanh", tile.tanh, np.tanh),
        ("sin", tile.sin, np.sin),
        ("cos", tile.cos, np.cos),
        ("maximum", lambda t: tile.maximum(t, 0.0), lambda a: np.maximum(a, 0)),
        ("minimum", lambda t: tile.minimum(t, tile.zeros((8, 16), f32)), lambda a: np.minimum(a, 0)),
        ("where", lambda t: tile.where(t > 0.0, t, 0.5), lambda a: np.where(a > 0, a, 0.5)),
    ],
)
def test_elementwise_f32(name: str, fn: Any, want: Any) -> None:
    x = rand(8, 16)
    got = whole_tile(fn, x, (8, 16), f32)
    np.testing.assert_allclose(got, want(x).astype(np.float32), rtol=2e-6, atol=1e-6, err_msg=name)


def test_comparisons_give_bool_tiles() -> None:
    x = rand(4, 4)
    for op, ref in [
        (lambda t: t < 0.0, x < 0),
        (lambda t: t <= 0.0, x <= 0),
        (lambda t: t > 0.1, x > np.float32(0.1)),
        (lambda t: t >= 0.1, x >= np.float32(0.1)),
        (lambda t: t == t, x == x),
        (lambda t: t != 0.0, x != 0),
    ]:
        np.testing.assert_array_equal(whole_tile(op, x, (4, 4), "bool"), ref)


def test_f16_stays_f16_and_rounds_once_per_op() -> None:
    x = rand(32, dtype=np.float16)
    got = whole_tile(lambda t: tile.exp(t) * 3.0 + t, x, (32,), f16)
    assert got.dtype == np.float16
    e = np.exp(x.astype(np.float32)).astype(np.float16)
    m = (e.astype(np.float32) * 3).astype(np.float16)
    want = (m.astype(np.float32) + x.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(got, want)


def test_bf16_tiles_round_every_op_to_bf16() -> None:
    @tile.kernel
    def third(out: Partition[bf16], src: Tensor[bf16]) -> None:
        out.store(tile.full((64,), 1.0, bf16) / 3.0 + tile.load_like(src, out))

    stream = cpu_stream()
    out, _src = third(tile.zeros((64,), bf16).partition((64,)), tile.zeros((64,), bf16)).sync_on(stream)
    got = out.unpartition().to_numpy(stream)
    want = bf16_to_f32(f32_to_bf16(np.float32(1.0) / np.float32(3.0)))
    np.testing.assert_array_equal(got, np.full(64, want, np.float32))
    assert got[0] != np.float32(1.0) / np.float32(3.0)  # really rounded to bf16


def test_dtype_of_tensor_argument_is_checked() -> None:
    @tile.kernel
    def copy(out: Partition[bf16], src: Tensor[bf16]) -> None:
        out.store(tile.load_like(src, out))

    with pytest.raises(TypeError, match=r"copy: parameter `src` expects Tensor\[bf16\], got a f32 tensor"):
        copy(tile.zeros((8,), bf16).partition((8,)), tile.zeros((8,), f32))
    src = tile.from_numpy(np.zeros(8, np.float32)).then(lambda t: t)  # no static shape: checked when run
    op = copy(tile.zeros((8,), bf16).partition((8,)), src)
    with pytest.raises(TypeError, match=r"parameter `src` expects Tensor\[bf16\], got a f32 tensor"):
        op.sync_on(cpu_stream())


def test_astype_converts_and_truncates() -> None:
    x = np.array([-2.7, -0.5, 0.5, 2.7], np.float32)
    np.testing.assert_array_equal(whole_tile(lambda t: t.astype(i32), x, (4,), i32), [-2, 0, 0, 2])
    np.testing.assert_array_equal(whole_tile(lambda t: t.astype(f16), x, (4,), f16), x.astype(np.float16))


def test_integer_division_truncates_toward_zero() -> None:
    x = np.array([-7, -6, 6, 7], np.int32)
    np.testing.assert_array_equal(whole_tile(lambda t: t / 2, x, (4,), i32), [-3, -3, 3, 3])


def test_mismatched_dtypes_are_a_type_error() -> None:
    x = rand(4)
    with pytest.raises(DiagnosticError, match=r"SK023 \+: tiles have different dtypes \(f32 and f16\)"):
        whole_tile(lambda t: t + t.astype(f16), x, (4,), f32)
    with pytest.raises(DiagnosticError, match="SK023 cannot combine a float scalar"):
        whole_tile(lambda t: t.astype(i32) * 0.5, x, (4,), i32)


def test_tile_has_no_truth_value() -> None:
    with pytest.raises(DiagnosticError, match=r"SK001 `IfExp` expressions are not supported"):
        whole_tile(lambda t: t if t > 0.0 else -t, rand(4), (4,), f32)


# -- reductions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sum", "max", "min"])
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(name: str, axis: int, keepdims: bool) -> None:
    x = rand(4, 6, 8)
    fn = getattr(tile, name)
    want = getattr(np, name)(x, axis=axis, keepdims=keepdims)
    got = whole_tile(lambda t: fn(t, axis=axis, keepdims=keepdims), x, want.shape, f32)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_reduction_drops_axis_like_numpy() -> None:
    t = Tile(np.zeros((4, 6, 8), np.float32), f32.__dtype__)
    assert tile.sum(t, axis=1).shape == (4, 8)
    assert tile.max(t, axis=1, keepdims=True).shape == (4, 1, 8)
    assert tile.min(t, axis=0).shape == (6, 8)
    assert tile.sum(t).shape == ()
    with pytest.raises(ShapeError, match="axis 3 is out of range for a rank-3 tile"):
        tile.sum(t, axis=3)


def test_f16_sum_accumulates_in_f32() -> None:
    x = np.full(4096, 1.0, np.float16)  # 4096 ones: an f16 running sum would stall at 2048
    got = whole_tile(lambda t: tile.reshape(tile.sum(t, axis=0), (1,)), x, (1,), f16)
    assert got[0] == np.float16(4096)


# -- shape ops ---------------------------------------------------------------------------------------------


def test_broadcast_to_reshape_transpose() -> None:
    x = rand(6, 4)
    np.testing.assert_array_equal(whole_tile(tile.transpose, x, (4, 6), f32), x.T)
    np.testing.assert_array_equal(
        whole_tile(lambda t: tile.reshape(t, (3, 8)), x, (3, 8), f32), x.reshape(3, 8)
    )
    np.testing.assert_array_equal(whole_tile(lambda t: tile.reshape(t, (24,)), x, (24,), f32), x.reshape(24))
    col = rand(6, 1)
    np.testing.assert_array_equal(
        whole_tile(lambda t: tile.broadcast_to(t, (6, 5)), col, (6, 5), f32), np.broadcast_to(col, (6, 5))
    )
    row = rand(5)
    np.testing.assert_array_equal(
        whole_tile(lambda t: tile.broadcast_to(t, (3, 5)), row, (3, 5), f32), np.broadcast_to(row, (3, 5))
    )


def test_shape_op_errors() -> None:
    t = Tile(np.zeros((6, 4), np.float32), f32.__dtype__)
    with pytest.raises(ShapeError, match=r"new shape \(5, 5\) has 25 elements, the tile \(6, 4\) has 24"):
        tile.reshape(t, (5, 5))
    with pytest.raises(ShapeError, match=r"cannot broadcast a tile of shape \(6, 4\) to \(6, 5\)"):
        tile.broadcast_to(t, (6, 5))
    with pytest.raises(ShapeError, match="transpose needs a rank-2 tile"):
        tile.transpose(tile.reshape(t, (24,)))
    with pytest.raises(ShapeError, match="do not broadcast together"):
        _ = t + Tile(np.zeros((3,), np.float32), f32.__dtype__)


def test_implicit_broadcast_of_keepdims_reduction() -> None:
    x = rand(5, 7)
    got = whole_tile(lambda t: t - tile.max(t, axis=1, keepdims=True), x, (5, 7), f32)
    np.testing.assert_allclose(got, x - x.max(axis=1, keepdims=True))


# -- matmul ------------------------------------------------------------------------------------------------


@tile.kernel
def to_bf16(out: Partition[bf16], src: Tensor[f32]) -> None:
    out.store(tile.load_like(src, out).astype(bf16))


BM, BN, BK = 32, 32, 16


@tile.kernel
def gemm_acc(c: Partition[f32], x: Tensor[Any], y: Tensor[Any]) -> None:
    i, j = tile.bid(0), tile.bid(1)
    xp, yp = x.partition((BM, BK)), y.partition((BK, BN))
    acc = c.load()
    for kk in range(xp.num_tiles(1)):
        acc = tile.matmul(xp.load((i, kk)), yp.load((kk, j)), acc)
    c.store(acc)


@pytest.mark.parametrize("dtype", [f16, bf16, f32])
def test_matmul_against_numpy(dtype: Any) -> None:
    m, n, k = 70, 50, 90
    a, b, c0 = rand(m, k), rand(k, n), rand(m, n)
    stream = cpu_stream()
    if dtype is bf16:
        a, b = bf16_to_f32(f32_to_bf16(a)), bf16_to_f32(f32_to_bf16(b))  # exactly representable inputs
        xa, _ = to_bf16(tile.zeros((m, k), bf16).partition((m, k)), tile.from_numpy(a)).sync_on(stream)
        yb, _ = to_bf16(tile.zeros((k, n), bf16).partition((k, n)), tile.from_numpy(b)).sync_on(stream)
        x, y = xa.unpartition(), yb.unpartition()
    else:
        np_dtype = np.float16 if dtype is f16 else np.float32
        a, b = a.astype(np_dtype), b.astype(np_dtype)
        x, y = tile.from_numpy(a), tile.from_numpy(b)
    c, x, y = gemm_acc(tile.from_numpy(c0).partition((BM, BN)), x, y).sync_on(stream)
    assert x.dtype.name == dtype.__dtype__.name
    got = c.unpartition().to_numpy(stream)
    want = a.astype(np.float32) @ b.astype(np.float32) + c0
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_matmul_typing_rules() -> None:
    def t(shape: tuple[int, ...], dt: Any) -> Tile[Any]:
        return Tile(np.zeros(shape, np.float32), dt.__dtype__)

    with pytest.raises(ShapeError, match="inner dimensions do not match"):
        tile.matmul(t((4, 8), f32), t((4, 8), f32), t((4, 8), f32))
    with pytest.raises(TypeError, match="accumulates in f32"):
        tile.matmul(t((4, 8), f32), t((8, 4), f32), t((4, 4), f16))
    with pytest.raises(TypeError, match="inputs must both be f16, bf16 or f32"):
        tile.matmul(t((4, 8), f16), t((8, 4), f32), t((4, 4), f32))


# -- creation, grid ----------------------------------------------------------------------------------------


def test_in_kernel_creation_and_grid_queries() -> None:
    @tile.kernel
    def fill(out: Partition[f32]) -> None:
        base = tile.full((4, 8), 10.0, f32) * tile.bid(0) + tile.zeros((4, 8), f32)
        cols = tile.iota(8, i32).astype(f32)
        out.store(base + cols + 100.0 * tile.bid(1) + 1000.0 * tile.num_blocks(0) + tile.num_blocks(2))

    stream = cpu_stream()
    (out,) = fill(tile.zeros((12, 16), f32).partition((4, 8))).sync_on(stream)
    got = out.unpartition().to_numpy(stream)
    rows = np.repeat(np.arange(3) * 10.0, 4)[:, None]
    cols = np.tile(np.arange(8.0), 2)[None, :]
    colblocks = np.repeat(np.arange(2) * 100.0, 8)[None, :]
    np.testing.assert_array_equal(got, rows + cols + colblocks + 3000.0 + 1.0)


def test_grid_queries_outside_a_kernel_raise() -> None:
    with pytest.raises(TypeError, match=r"tile.bid is only valid inside a @tile.kernel body"):
        tile.bid(0)
    with pytest.raises(TypeError, match=r"only valid inside a @tile\.kernel body"):
        tile.iota(4, i32)


def test_op_table_declares_every_value_op_once() -> None:
    expected = {
        "add", "sub", "mul", "truediv", "neg", "lt", "le", "gt", "ge", "eq", "ne", "where", "exp", "exp2", "log",
        "sqrt",
        "rsqrt", "tanh", "sin", "cos", "maximum", "minimum", "astype", "sum", "max", "min", "broadcast_to",
        "reshape", "transpose", "matmul", "zeros", "full", "iota",
        "floordiv", "mod", "bitand", "bitor", "bitxor", "lshift", "rshift", "invert", "scan", "argmax", "argmin",
    }  # fmt: skip
    assert set(OPS) == expected
    for name, spec in OPS.items():
        assert spec.name == name and callable(spec.infer) and callable(spec.cpu) and spec.doc
