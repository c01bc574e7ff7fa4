"""Second batch of fresh tile programs (docs/tile.md, docs/numerics.md, docs/autotune.md), written from the docs
alone: ragged 2-D/3-D partitions, reductions with keepdims on every axis, transpose/reshape/broadcast chains,
`where` with scalars, `astype` between every pair of dtypes (fp8 saturation included), matmuls of odd shapes,
loops carrying tiles and scalars, gather/scatter/atomics on 2-D tensors, host chains (`then`, `zip`, `first`,
`shared`), `graph_on` replay and `@tile.autotune`."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated, Any

import numpy as np
from fresh2_simt_programs import round_bf16
from fresh_program import Program, tile_program

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import (
    bf16,
    bool_,
    f8e4m3,
    f8e5m2,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
)
from safekernels.tile import AtomicTensor, Partition, Tensor


def _out(shape: tuple[int, ...], tile_shape: tuple[int, ...], dtype: Any, device: sk.Device) -> Any:
    return tile.zeros(shape, dtype, device=device).partition(tile_shape)


def _in(a: np.ndarray, device: sk.Device, dtype: Any = None) -> Any:
    return tile.from_numpy(a, device=device, dtype=dtype)


def per_tile(x: np.ndarray, ts: tuple[int, ...], f: Callable[[np.ndarray, tuple[int, ...]], np.ndarray]) -> np.ndarray:
    """`f(tile, tile_index)` over the zero-padded tiles of `x`, cropped back to `x`'s shape."""
    grid = tuple(-(-n // t) for n, t in zip(x.shape, ts, strict=True))
    padded = np.zeros(tuple(g * t for g, t in zip(grid, ts, strict=True)), x.dtype)
    padded[tuple(slice(0, n) for n in x.shape)] = x
    result: np.ndarray | None = None
    for index in np.ndindex(*grid):
        sl = tuple(slice(i * t, (i + 1) * t) for i, t in zip(index, ts, strict=True))
        got = np.asarray(f(padded[sl], index))
        if result is None:
            result = np.zeros(padded.shape, got.dtype)
        result[sl] = got
    assert result is not None
    return result[tuple(slice(0, n) for n in x.shape)]


def round_fp8(x: np.ndarray, name: str) -> np.ndarray:
    """Round to f8e4m3 / f8e5m2 (nearest even, saturating to the largest finite value; NaN stays NaN), as f32."""
    mbits, emin, top = (3, -6, 448.0) if name == "f8e4m3" else (2, -14, 57344.0)
    v = np.asarray(x, np.float64)
    a = np.abs(v)
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.floor(np.log2(np.where((a > 0) & np.isfinite(a), a, 1.0)))
    step = np.exp2(np.maximum(e, emin) - mbits)
    with np.errstate(invalid="ignore"):
        q = np.minimum(np.round(a / step) * step, top)
    return np.where(np.isnan(v), np.nan, np.copysign(q, v)).astype(np.float32)


# 1. A ragged 2-D partition: a (13, 19) matrix in (8, 8) tiles; global row/column from iota and the block ids.
@tile.kernel
def ragged_2d(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    rows = tile.reshape(tile.iota(8, i32), (8, 1)) + tile.bid(0) * 8
    cols = tile.reshape(tile.iota(8, i32), (1, 8)) + tile.bid(1) * 8
    out.store(t * 2.0 + (rows * 100 + cols).astype(f32))


# 2. A 3-D partition (5, 7, 6) in (2, 4, 8) tiles: the last tile axis covers a whole row (padded with zeros).
@tile.kernel
def ragged_3d(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    out.store(t * 10.0 + tile.sum(t, axis=2, keepdims=True) - tile.max(t, axis=0, keepdims=True))


# 3. Reductions with keepdims on each axis of a 3-D tile, and arg-reductions with keepdims.
@tile.kernel
def keepdims_3d(s: Partition[i32], a: Partition[i32], x: Tensor[i32]) -> None:
    t = x.load((0, 0, 0), (2, 3, 4))
    s0 = tile.sum(t, axis=0, keepdims=True)
    s1 = tile.min(t, axis=1, keepdims=True)
    s2 = tile.max(t, axis=2, keepdims=True)
    s.store(s0 * 10000 + s1 * 100 + s2 + tile.broadcast_to(tile.reshape(tile.sum(t), (1, 1, 1)), (2, 3, 4)))
    a.store(
        tile.argmax(t, axis=0, keepdims=True) * 100
        + tile.argmin(t, axis=1, keepdims=True) * 10
        + tile.argmax(t, axis=2, keepdims=True)
    )


# 4. A transpose / reshape / broadcast chain.
@tile.kernel
def shape_chain(out: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((0, 0), (4, 8))
    u = tile.reshape(tile.transpose(t), (2, 16))
    col = tile.reshape(tile.sum(u, axis=1), (2, 1))
    v = tile.broadcast_to(col, (2, 16)) - u
    w = tile.transpose(tile.reshape(v, (8, 4)))
    out.store(
        tile.reshape(w, (32,)) + tile.reshape(tile.broadcast_to(tile.reshape(tile.iota(4, f32), (4, 1)), (4, 8)), (32,))
    )


# 5. `tile.where` with scalars in every position.
@tile.kernel
def where_scalars(
    a: Partition[i32], b: Partition[f32], c: Partition[f32], d: Partition[bool_], x: Tensor[f32], k: i32, s: f32
) -> None:
    t = tile.load_like(x, b)
    a.store(tile.where(t > 0.0, k, -1))
    b.store(tile.where(t > 0.5, t, 2.5))
    c.store(tile.where(t < -0.5, s, t) + tile.where(t == 0.0, 1.0, 0.0))
    d.store(tile.where(t > 1.0, True, False))


# 5b. `tile.where` with a scalar bool condition (the CPU executor once refused what the GPU ran).
@tile.kernel
def where_scalar_condition(out: Partition[f32], x: Tensor[f32], n: i32) -> None:
    t = tile.load_like(x, out)
    out.store(tile.where(n > 2, t, 0.0) + tile.where(tile.bid(0) == 1, 10.0, t) + tile.where(n < 0, t, -t))


# 6. `astype` from one dtype to every dtype (the kernel is generic over its input's dtype).
@tile.kernel
def astype_all(
    o_f32: Partition[f32],
    o_f64: Partition[f64],
    o_f16: Partition[f16],
    o_bf16: Partition[bf16],
    o_e4: Partition[f8e4m3],
    o_e5: Partition[f8e5m2],
    o_i8: Partition[i8],
    o_i16: Partition[i16],
    o_i32: Partition[i32],
    o_i64: Partition[i64],
    o_u8: Partition[u8],
    o_u16: Partition[u16],
    o_u32: Partition[u32],
    o_u64: Partition[u64],
    o_b: Partition[bool_],
    x: Tensor[Any],
) -> None:
    t = tile.load_like(x, o_f32)
    o_f32.store(t.astype(f32))
    o_f64.store(t.astype(f64))
    o_f16.store(t.astype(f16))
    o_bf16.store(t.astype(bf16))
    o_e4.store(t.astype(f8e4m3))
    o_e5.store(t.astype(f8e5m2))
    o_i8.store(t.astype(i8))
    o_i16.store(t.astype(i16))
    o_i32.store(t.astype(i32))
    o_i64.store(t.astype(i64))
    o_u8.store(t.astype(u8))
    o_u16.store(t.astype(u16))
    o_u32.store(t.astype(u32))
    o_u64.store(t.astype(u64))
    o_b.store(t.astype(bool_))


# 7. fp8 arithmetic saturates: every op computes in f32 and rounds (saturating) to the tile's dtype.
@tile.kernel
def fp8_ops(
    e4: Partition[f8e4m3], e5: Partition[f8e5m2], wide: Partition[f32], x: Tensor[f8e4m3], y: Tensor[f8e5m2]
) -> None:
    a = tile.load_like(x, e4)
    b = tile.load_like(y, e5)
    e4.store(a * 3.0 + 1.0)
    e5.store(b * b - 2.0)
    wide.store(a.astype(f32) * 3.0 + b.astype(f32))


# 8. A K loop over partitions of odd f16 matrices (37 x 40) @ (40 x 29) in 16 x 16 x 16 tiles, acc from an input.
@tile.kernel
def odd_gemm(c: Partition[f32], a: Tensor[f16], b: Tensor[f16], bias: Tensor[f32]) -> None:
    at = a.partition((16, 16))
    bt = b.partition((16, 16))
    acc = tile.load_like(bias, c)
    for k in range(at.num_tiles(1)):
        acc = tile.matmul(at.load((tile.bid(0), k)), bt.load((k, tile.bid(1))), acc)
    c.store(acc)


# 9. bf16 and f32 matmuls with odd shapes on 1 warp: (8 x 24) @ (24 x 40) bf16, f32 exact and TF32.
@tile.kernel(num_warps=1)
def odd_matmuls(
    c1: Partition[f32],
    c2: Partition[f32],
    c3: Partition[f32],
    a: Tensor[bf16],
    b: Tensor[bf16],
    x: Tensor[f32],
    y: Tensor[f32],
) -> None:
    acc = tile.zeros((8, 40), f32)
    c1.store(tile.matmul(a.load((0, 0), (8, 24)), b.load((0, 0), (24, 40)), acc))
    xa = x.load((0, 0), (8, 24))
    yb = tile.transpose(y.load((0, 0), (40, 24)))
    c2.store(tile.matmul(xa, yb, acc))
    c3.store(tile.matmul(xa, yb, acc + 1.0, input_precision="tf32"))


# 9b. Degenerate matmul shapes: a row vector times a matrix (1 x 16 @ 16 x 24) and an outer product (K = 1).
@tile.kernel
def thin_matmuls(row: Partition[f32], outer: Partition[f32], v: Tensor[f16], m: Tensor[f16], c: Tensor[f16]) -> None:
    row.store(tile.matmul(v.load((0, 0), (1, 16)), m.load((0, 0), (16, 24)), tile.full((1, 24), 0.5, f32)))
    col = c.load((0, 0), (16, 1))
    outer.store(tile.matmul(col, tile.transpose(col), tile.zeros((16, 16), f32)))


# 10. Loops carrying a tile, a typed f32 scalar, an i32 scalar, a tuple and a bool, with a negative step.
@tile.kernel
def carried(out: Partition[f32], x: Tensor[f32], scale: f32, n: i32) -> None:
    t = tile.load_like(x, out)
    acc = tile.zeros((16,), f32)
    s = scale
    m = n
    pair = (t, s)
    seen = False
    for k in range(n, 0, -2):
        acc = acc + t * s
        s = s * 0.5  # type: ignore[assignment]
        m = m - k  # type: ignore[assignment]
        pair = (pair[0] + 1.0, pair[1] + s)  # type: ignore[assignment]
        seen = seen | (k == 3)
    out.store(acc + pair[0] * pair[1] + f32(m) + f32(int(seen) * 100))


# 11. A scatter and a masked 2-D gather: rows picked by an index tensor, a column window that falls off the edge.
@tile.kernel
def gather_scatter_2d(picked: Partition[f32], moved: Partition[f32], table: Tensor[f32], rows: Tensor[i32]) -> None:
    r = tile.reshape(rows.load((tile.bid(0),), (4,)), (4, 1))
    cols = tile.reshape(tile.iota(8, i32), (1, 8)) + 3
    vals = tile.gather(table, (r, cols), mask=(r >= 0) & (cols < table.shape[1]), other=-1.0)
    picked.store(vals)
    dst_rows = tile.reshape(tile.iota(4, i32), (4, 1)) + tile.bid(0) * 4
    dst_cols = 7 - tile.reshape(tile.iota(8, i32), (1, 8))
    tile.scatter(moved, (dst_rows, dst_cols), vals * 2.0, mask=vals > 0.0)


# 12. Scans: integer max/min scans along axis 0, a cumsum of f16 (accumulated in f32, rounded once).
@tile.kernel
def scans(mx: Partition[i32], mn: Partition[i32], cs: Partition[f16], x: Tensor[i32], h: Tensor[f16]) -> None:
    t = tile.load_like(x, mx)
    mx.store(tile.scan(t, axis=0, op="max"))
    mn.store(tile.scan(t, axis=0, op="min"))
    cs.store(tile.cumsum(tile.load_like(h, cs), axis=1))


# 13. Arg-reductions with NaN and ties on each axis; reductions of a bool tile (sum is i64).
@tile.kernel
def arg_nan(am: Partition[i32], counts: Partition[i64], x: Tensor[f32]) -> None:
    t = x.load((0, 0), (4, 8))
    am.store(tile.argmax(t, axis=1, keepdims=True) * 10 + tile.argmin(t, axis=1, keepdims=True))
    counts.store(tile.sum(t > 0.0, axis=1, keepdims=True) + tile.sum(t != t))


# 14. Integer bit operations on u8, u16 and i64 tiles, shifts by tile amounts past the width.
@tile.kernel
def bit_ops(
    a8: Partition[u8], a16: Partition[u16], a64: Partition[i64], x: Tensor[u8], y: Tensor[u16], z: Tensor[i64]
) -> None:
    p = tile.load_like(x, a8)
    q = tile.load_like(y, a16)
    r = tile.load_like(z, a64)
    amount = tile.iota(16, u8)
    a8.store((p << amount) | (p >> (amount // 2)) ^ ~p)
    a16.store((q * 3 + 1) & 0xF0F0 | q >> amount.astype(u16) * 2)
    a64.store((r << amount.astype(i64) * 5) ^ (r >> 63) + (r % -7) * (r // 1000))


# 15. Math on f16, bf16 and f64 tiles.
@tile.kernel
def tile_math(
    h: Partition[f16], b: Partition[bf16], d: Partition[f64], x: Tensor[f16], y: Tensor[bf16], z: Tensor[f64]
) -> None:
    p = tile.load_like(x, h)
    q = tile.load_like(y, b)
    r = tile.load_like(z, d)
    h.store(tile.exp2(p) + tile.tanh(p))
    b.store(tile.sqrt(q * q + 1.0) + tile.sin(q))
    d.store(tile.log(r * r + 1.0) + tile.rsqrt(r * r + 2.0) + tile.cos(r))


# 15b. Reductions, scans and arg-reductions of f16 and bf16 tiles (accumulated in f32, rounded once).
@tile.kernel
def half_reductions(
    s16: Partition[f16],
    m16: Partition[f16],
    sb: Partition[bf16],
    cb: Partition[bf16],
    am: Partition[i32],
    h: Tensor[f16],
    b: Tensor[bf16],
) -> None:
    t = h.load((0, 0), (8, 16))
    u = b.load((0, 0), (8, 16))
    s16.store(tile.sum(t, axis=1, keepdims=True))
    m16.store(tile.max(t, axis=0, keepdims=True) - tile.min(t, axis=0, keepdims=True))
    sb.store(tile.sum(u, axis=0, keepdims=True))
    cb.store(tile.cumsum(u, axis=1))
    am.store(tile.argmax(u, axis=1, keepdims=True) * 100 + tile.argmin(t, axis=1, keepdims=True))


# 16. A big (64, 64) tile on 1 and on 8 warps: row and column sums and a max.
@tile.kernel(num_warps=8)
def wide_tile8(rows: Partition[f32], total: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((0, 0), (64, 64))
    rows.store(tile.sum(t, axis=1) + tile.max(t, axis=1))
    total.store(tile.reshape(tile.sum(tile.sum(t, axis=0, keepdims=True), axis=1), (1,)))


@tile.kernel(num_warps=1)
def wide_tile1(rows: Partition[f32], total: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((0, 0), (64, 64))
    rows.store(tile.sum(t, axis=1) + tile.max(t, axis=1))
    total.store(tile.reshape(tile.sum(tile.sum(t, axis=0, keepdims=True), axis=1), (1,)))


# 17. z.tile_shape as a load's shape and in a range; the 2-D grid: bid(1), num_blocks(1); axes beyond the rank.
@tile.kernel
def grid_2d(out: Partition[i32], x: Tensor[i32]) -> None:
    t = x.partition(out.tile_shape).load((tile.bid(0), tile.bid(1)))
    extra = 0
    for k in range(out.tile_shape[1]):
        extra = extra + k
    out.store(
        t + tile.bid(0) * 1000 + tile.bid(1) * 100 + tile.num_blocks(1) * 10 + tile.bid(2) + tile.num_blocks(2) + extra
    )


# 18. independent_shapes: a shorter input whose missing tail (inside its last tile) reads as zeros.
@tile.kernel(independent_shapes=("x",))
def short_input(out: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) + tile.load_like(y, out) * 2.0)


# 19. Helpers: a lambda helper and a helper calling a helper, returning a tuple.
square = tile.function(lambda t: t * t)


@tile.function
def moments(t: Any) -> tuple[Any, Any]:
    return tile.sum(t, axis=1, keepdims=True), tile.sum(square(t), axis=1, keepdims=True)


@tile.kernel
def helpers(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    s1, s2 = moments(t)
    out.store(s2 * 8.0 - s1 * s1 + square(t))


# 20. Bool tiles: & | ^ ~ and + * - on bools, where on a bool, astype to int.
@tile.kernel
def bool_logic(out: Partition[i32], flags: Partition[bool_], x: Tensor[i32]) -> None:
    t = tile.load_like(x, out)
    a = t > 0
    b = t % 2 == 0
    c = (a & b) | (~a ^ b)
    flags.store(a + b * c - (a & ~b))
    out.store(c.astype(i32) * 4 + (a | b).astype(i32) * 2 + tile.where(a ^ b, 1, 0))


# 21. Atomics into 2-D AtomicTensors: a masked f32 add of exact values, a u32 max and an i64 min.
@tile.kernel
def atomics_2d(
    done: Partition[i32], acc: AtomicTensor[f32], top: AtomicTensor[u32], low: AtomicTensor[i64], x: Tensor[i32]
) -> None:
    v = tile.load_like(x, done)
    r = tile.reshape(v % 3, (16, 1))
    c = tile.reshape(tile.iota(4, i32), (1, 4))
    tile.atomic_add(acc, (r, c), tile.reshape(v.astype(f32), (16, 1)) * 0.5, mask=r >= 0)
    tile.atomic_max(top, (0, 1), tile.max(v).astype(u32))
    tile.atomic_min(low, (1, 0), tile.min(v).astype(i64) * 3)
    done.store(v * 0 + 1)


# 22. Reshape 3-D -> 1-D -> 3-D and a 3-D broadcast.
@tile.kernel
def reshape_3d(out: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((0, 0, 0), (2, 4, 4))
    flat = tile.reshape(t, (32,))
    back = tile.reshape(flat * 2.0, (4, 2, 4))
    col = tile.broadcast_to(tile.reshape(tile.iota(4, f32), (1, 1, 4)), (4, 2, 4))
    out.store(back + col)


# 23. Device print and assert in a tile kernel with a 2-D grid.
@tile.kernel
def print_assert(out: Partition[i32], x: Tensor[i32], n: i32) -> None:
    print("block", tile.bid(0), tile.bid(1), "of", tile.num_blocks(0), "x", tile.num_blocks(1), "n", n)
    assert x.shape[0] >= 1, "empty"
    out.store(tile.load_like(x, out) + n)


# 24. Integer scalar parameters of each width in tile arithmetic and as range bounds.
@tile.kernel
def int_scalars(out: Annotated[Partition[i64], tile.Dims(8)], a: i8, b: u16, c: i64, d: u32) -> None:
    total = 0
    for k in range(a, b):
        total = total + k
    out.store(tile.full((8,), total, i64) + c * 2 + d + tile.iota(8, i64))


# Host chains: then / zip / first / shared; graph replay; autotune.
@tile.kernel
def scale_add(z: Partition[f32], x: Tensor[f32], a: f32) -> None:
    z.store(tile.load_like(x, z) * a + 1.0)


@tile.kernel
def accumulate(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(z.load() + tile.load_like(x, z))


BLOCK = 16


@tile.autotune(configs=[tile.Config(BLOCK=16), tile.Config(BLOCK=32, num_warps=1)], key=["x"], warmup=1, rep=1)
@tile.kernel
def tuned_axpy(out: Annotated[Partition[f32], tile.Dims(BLOCK)], x: Tensor[f32], a: f32) -> None:
    out.store(tile.load_like(x, out) * a - 3.0)


def _chain_program(x: np.ndarray) -> Program:
    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        shared_x = tile.from_numpy(x, device=device).shared()
        first = scale_add(_out((40,), (16,), f32, device), shared_x, 2.0)
        second = scale_add(_out((40,), (8,), f32, device), shared_x, -1.0)
        both = sk.zip(first, second)

        def third(values: Any) -> Any:
            (z1, _x1, _a1), (z2, _x2, _a2) = values
            return accumulate(z2, z1.unpartition())

        z, _x = both.then(third).sync_on(stream)
        only = scale_add(_out((40,), (16,), f32, device), shared_x, 3.0).first().sync_on(stream)
        return [z.unpartition().to_numpy(stream), only.unpartition().to_numpy(stream)]

    def reference() -> list[np.ndarray]:
        return [(x * np.float32(-1) + 1) + (x * np.float32(2) + 1), x * np.float32(3) + 1]

    def assemble(arch: str) -> Any:
        dev = sk.Device.cpu()
        return accumulate.inspect(_out((40,), (8,), f32, dev), _in(x, dev), arch=arch)

    return Program("tile2: shared input, zip, then, first chains", run, reference, assemble)


def _graph_program(x: np.ndarray) -> Program:
    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        op = accumulate(_out((50,), (16,), f32, device), _in(x, device))
        graph = op.graph_on(stream)
        for _ in range(3):
            graph.replay(stream)
        stream.synchronize()
        z, _x = graph.value
        return [z.to_numpy(stream).reshape(-1)]

    def assemble(arch: str) -> Any:
        dev = sk.Device.cpu()
        return accumulate.inspect(_out((50,), (16,), f32, dev), _in(x, dev), arch=arch)

    return Program("tile2: graph_on replayed three times", run, lambda: [x * np.float32(3)], assemble)


def _mixed_graph_program(x: np.ndarray, y: np.ndarray) -> Program:
    """A SIMT `launch_async` (grid-stride saxpy) chained into a tile launch that takes its output buffer, captured
    with `graph_on` and replayed twice: the tile output accumulates two rounds."""
    from fresh2_simt_programs import saxpy_strided

    from safekernels import simt

    n = x.shape[0]

    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        xs, ys = sk.to_device(x, stream, device=device), sk.to_device(y, stream, device=device)
        out = sk.zeros(n, f32, stream, device=device)
        prepared = saxpy_strided.prepare(simt.LaunchConfig1D(grid=2, block=64), device)
        first = saxpy_strided.launch_async(prepared, xs, ys, out, 0.5)
        def add_into_tile(values: tuple[Any, ...]) -> Any:
            return accumulate(_out((n,), (16,), f32, device), values[2])

        chain = first.then(add_into_tile)
        graph = chain.graph_on(stream)
        graph.replay(stream)
        graph.replay(stream)
        stream.synchronize()
        z, _buffer = graph.value
        return [z.to_numpy(stream).reshape(-1)]

    def assemble(arch: str) -> Any:
        dev = sk.Device.cpu()
        return accumulate.inspect(_out((n,), (16,), f32, dev), _in(x, dev), arch=arch)

    return Program(
        "tile2: graph of a SIMT launch_async chained into a tile launch, replayed twice",
        run,
        lambda: [(np.float32(0.5) * x + y) * np.float32(2)],
        assemble,
    )


def _autotune_program(x: np.ndarray) -> Program:
    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        out, xs, _ = tuned_axpy(tile.zeros((70,), f32, device=device), _in(x, device), 1.5).sync_on(stream)
        out2, _, _ = tuned_axpy(out, xs, 0.5).sync_on(stream)
        return [out2.to_numpy(stream)]

    def assemble(arch: str) -> Any:
        dev = sk.Device.cpu()
        return tuned_axpy.variants[1].inspect(_out((70,), (32,), f32, dev), _in(x, dev), 1.5, arch=arch)

    return Program("tile2: autotune over tile shape and warps", run, lambda: [x * np.float32(0.5) - 3], assemble)


DTYPES: dict[str, Any] = {
    "f32": f32,
    "f64": f64,
    "f16": f16,
    "bf16": bf16,
    "f8e4m3": f8e4m3,
    "f8e5m2": f8e5m2,
    "i8": i8,
    "i16": i16,
    "i32": i32,
    "i64": i64,
    "u8": u8,
    "u16": u16,
    "u32": u32,
    "u64": u64,
    "bool": bool_,
}
_INTS: dict[str, Any] = {
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "u8": np.uint8,
    "u16": np.uint16,
    "u32": np.uint32,
    "u64": np.uint64,
}
_INT_RANGE = {name: (int(np.iinfo(t).min), int(np.iinfo(t).max)) for name, t in _INTS.items()}


def astype_source(name: str) -> np.ndarray:
    """16 values of dtype `name` (as the host array `from_numpy` takes; bf16/fp8 rounded by the reference)."""
    if name == "bool":
        return np.array([True, False] * 8)
    if name in _INTS:
        lo, hi = _INT_RANGE[name]
        ints = [lo, hi, 0, 1, -1, 2, 100, -100, 127, 128, 255, 256, -129, 300, 65535, 70000]
        return np.array([min(max(v, lo), hi) if v < lo or v > hi else v for v in ints], dtype=_INTS[name])
    big = {"f32": 3e38, "f64": 1e300, "f16": 60000.0, "bf16": 3e38, "f8e4m3": 448.0, "f8e5m2": 57344.0}[name]
    vals = [-2.75, -0.5, 0.5, 2.5, 127.6, -128.9, 255.5, 300.25, -1e5, 7e4, big, -big, np.nan, -0.0, 1e-3, 33.3]
    storage = np.float16 if name == "f16" else (np.float64 if name == "f64" else np.float32)
    with np.errstate(over="ignore"):
        return np.array(vals, dtype=np.float64).astype(storage)


def _source_values(name: str, host: np.ndarray) -> np.ndarray:
    """The values the tensor holds after `from_numpy(host, dtype=name)`."""
    if name == "bf16":
        return round_bf16(host)
    if name in ("f8e4m3", "f8e5m2"):
        return round_fp8(host, name)
    return host


def convert(values: np.ndarray, src: str, dst: str) -> np.ndarray:
    """docs/numerics.md's conversion of `values` (dtype `src`) to `dst`, as `to_numpy` returns it."""
    src_float = src.startswith("f") or src == "bf16"
    if dst == "bool":
        return np.asarray(values != 0)
    if dst in _INTS:
        if not src_float:
            return values.astype(np.int64 if src != "u64" else np.uint64).astype(_INTS[dst])
        lo, hi = _INT_RANGE[dst]
        out = []
        for v in values.astype(np.float64):
            out.append(
                0 if math.isnan(v) else min(max(math.trunc(v) if math.isfinite(v) else (hi if v > 0 else lo), lo), hi)
            )
        return np.array(out, dtype=_INTS[dst])
    wide = values.astype(np.float64)
    with np.errstate(over="ignore"):
        if dst == "f32":
            return values.astype(np.float32)
        if dst == "f64":
            return wide
        if dst == "f16":
            return values.astype(np.float16)
        if dst == "bf16":
            return round_bf16(values.astype(np.float32))
    return round_fp8(wide, dst)


def _astype_program(src: str) -> Program:
    host = astype_source(src)
    n = host.shape[0]
    targets = list(DTYPES)

    def make(device: sk.Device) -> tuple[Any, ...]:
        outs = [_out((n,), (16,), DTYPES[t], device) for t in targets]
        return (*outs, _in(host, device, DTYPES[src] if src in ("bf16", "f8e4m3", "f8e5m2") else None))

    def reference() -> list[np.ndarray]:
        values = _source_values(src, host)
        return [convert(values, src, t) for t in targets]

    return tile_program(f"tile2: astype {src} -> every dtype", astype_all, make, tuple(range(len(targets))), reference)


def _programs() -> list[Program]:
    rng = np.random.default_rng(2123)
    progs: list[Program] = []

    # 1
    r2 = rng.standard_normal((13, 19)).astype(np.float32)

    def ragged_ref() -> list[np.ndarray]:
        rows, cols = np.indices((13, 19))
        return [(r2 * np.float32(2) + (rows * 100 + cols).astype(np.float32)).astype(np.float32)]

    progs.append(
        tile_program(
            "tile2: ragged 2-D partition (13, 19) in (8, 8)",
            ragged_2d,
            lambda d: (_out((13, 19), (8, 8), f32, d), _in(r2, d)),
            (0,),
            ragged_ref,
        )
    )

    # 2
    r3 = rng.integers(-8, 9, (5, 7, 6)).astype(np.float32)
    progs.append(
        tile_program(
            "tile2: ragged 3-D partition (5, 7, 6) in (2, 4, 8), keepdims sum and max",
            ragged_3d,
            lambda d: (_out((5, 7, 6), (2, 4, 8), f32, d), _in(r3, d)),
            (0,),
            lambda: [per_tile(r3, (2, 4, 8), lambda t, _i: t * 10 + t.sum(2, keepdims=True) - t.max(0, keepdims=True))],
        )
    )

    # 3
    k3 = rng.integers(-9, 10, (2, 3, 4)).astype(np.int32)

    def keepdims_ref() -> list[np.ndarray]:
        t = k3.astype(np.int64)
        s = t.sum(0, keepdims=True) * 10000 + t.min(1, keepdims=True) * 100 + t.max(2, keepdims=True) + t.sum()
        a = t.argmax(0)[None] * 100 + t.argmin(1)[:, None] * 10 + t.argmax(2)[:, :, None]
        return [s.astype(np.int32), a.astype(np.int32)]

    progs.append(
        tile_program(
            "tile2: reductions and arg-reductions with keepdims on each axis of a 3-D tile",
            keepdims_3d,
            lambda d: (_out((2, 3, 4), (2, 3, 4), i32, d), _out((2, 3, 4), (2, 3, 4), i32, d), _in(k3, d)),
            (0, 1),
            keepdims_ref,
        )
    )

    # 4
    s4 = rng.integers(-5, 6, (4, 8)).astype(np.float32)

    def chain_ref() -> list[np.ndarray]:
        u = s4.T.reshape(2, 16)
        v = u.sum(1, keepdims=True) - u
        w = v.reshape(8, 4).T
        return [w.reshape(32) + np.broadcast_to(np.arange(4, dtype=np.float32)[:, None], (4, 8)).reshape(32)]

    progs.append(
        tile_program(
            "tile2: transpose/reshape/broadcast chain",
            shape_chain,
            lambda d: (_out((32,), (32,), f32, d), _in(s4, d)),
            (0,),
            chain_ref,
        )
    )

    # 5
    w5 = np.array([-1, -0.6, -0.5, 0, 0.25, 0.5, 0.75, 1, 1.5, 2, -2, 0, np.nan, -0.0, 3, -3] * 2, np.float32)

    def where_ref() -> list[np.ndarray]:
        return [
            np.where(w5 > 0, 7, -1).astype(np.int32),
            np.where(w5 > 0.5, w5, 2.5).astype(np.float32),
            (np.where(w5 < -0.5, np.float32(-4.5), w5) + np.where(w5 == 0, 1, 0)).astype(np.float32),
            w5 > 1,
        ]

    progs.append(
        tile_program(
            "tile2: where with scalars in every position",
            where_scalars,
            lambda d: (
                _out((32,), (16,), i32, d),
                _out((32,), (16,), f32, d),
                _out((32,), (16,), f32, d),
                _out((32,), (16,), bool_, d),
                _in(w5, d),
                7,
                -4.5,
            ),
            (0, 1, 2, 3),
            where_ref,
        )
    )

    # 5b
    w5b = rng.standard_normal(32).astype(np.float32)

    def where_cond_ref(n: int) -> list[np.ndarray]:
        out = []
        for b in range(2):
            t = w5b[b * 16 : (b + 1) * 16]
            out.append(
                (t if n > 2 else np.zeros(16, np.float32)) + (np.float32(10) if b == 1 else t) + (t if n < 0 else -t)
            )
        return [np.concatenate(out).astype(np.float32)]

    def where_cond_program(n5: int) -> Program:
        def make(d: sk.Device) -> tuple[Any, ...]:
            return _out((32,), (16,), f32, d), _in(w5b, d), n5

        return tile_program(
            f"tile2: where with a scalar bool condition (n={n5})",
            where_scalar_condition,
            make,
            (0,),
            lambda: where_cond_ref(n5),
        )

    progs += [where_cond_program(3), where_cond_program(-1)]

    # 6 (one program per source dtype)
    progs += [_astype_program(src) for src in DTYPES]

    # 7
    f7 = np.array([1, 2, 100, 150, 448, -448, 0.5, -3, 0.125, 7, -0.0, 20, 64, 1.5, 0.0625, 300], np.float32)
    g7 = np.array([1, 2, 200, 57344, 300, -3, 0.5, 1e-4, 4, 16, -8, 240, 1000, 2.5, 0.75, -0.0], np.float32)

    def fp8_ref() -> list[np.ndarray]:
        a = round_fp8(f7, "f8e4m3")
        b = round_fp8(g7, "f8e5m2")
        with np.errstate(over="ignore"):
            a3 = round_fp8(round_fp8(a * np.float32(3), "f8e4m3") + np.float32(1), "f8e4m3")
            b2 = round_fp8(round_fp8(b * b, "f8e5m2") - np.float32(2), "f8e5m2")
            return [a3, b2, (a * np.float32(3) + b).astype(np.float32)]

    progs.append(
        tile_program(
            "tile2: fp8 arithmetic saturates",
            fp8_ops,
            lambda d: (
                _out((16,), (16,), f8e4m3, d),
                _out((16,), (16,), f8e5m2, d),
                _out((16,), (16,), f32, d),
                _in(f7, d, f8e4m3),
                _in(g7, d, f8e5m2),
            ),
            (0, 1, 2),
            fp8_ref,
        )
    )

    # 8
    a8 = rng.integers(-3, 4, (37, 40)).astype(np.float16)
    b8 = rng.integers(-3, 4, (40, 29)).astype(np.float16)
    bias8 = rng.integers(-10, 10, (37, 29)).astype(np.float32)
    progs.append(
        tile_program(
            "tile2: K loop over partitions of odd f16 matrices, acc from an input",
            odd_gemm,
            lambda d: (_out((37, 29), (16, 16), f32, d), _in(a8, d), _in(b8, d), _in(bias8, d)),
            (0,),
            lambda: [a8.astype(np.float32) @ b8.astype(np.float32) + bias8],
        )
    )

    # 9
    a9 = rng.integers(-4, 5, (8, 24)).astype(np.float32)
    b9 = rng.integers(-4, 5, (24, 40)).astype(np.float32)
    # exact in f32 whatever the order of the sums; y9 has 15 significant bits, so TF32 rounds it
    x9 = rng.integers(-50, 50, (8, 24)).astype(np.float32) / np.float32(8)
    y9 = rng.integers(-(2**14), 2**14, (40, 24)).astype(np.float32) / np.float32(1024)

    def tf32(v: np.ndarray) -> np.ndarray:
        bits = v.astype(np.float32).view(np.uint32).astype(np.uint64)
        return (((bits + 0x1000) >> 13) << 13).astype(np.uint32).view(np.float32)

    progs.append(
        tile_program(
            "tile2: bf16 / f32 / TF32 matmuls of odd shapes on one warp",
            odd_matmuls,
            lambda d: (
                _out((8, 40), (8, 40), f32, d),
                _out((8, 40), (8, 40), f32, d),
                _out((8, 40), (8, 40), f32, d),
                _in(a9, d, bf16),
                _in(b9, d, bf16),
                _in(x9, d),
                _in(y9, d),
            ),
            (0, 1, 2),
            lambda: [
                a9 @ b9,
                (x9.astype(np.float64) @ y9.T.astype(np.float64)).astype(np.float32),
                (tf32(x9).astype(np.float64) @ tf32(y9).T.astype(np.float64) + 1).astype(np.float32),
            ],
        )
    )

    # 9b
    v9 = rng.integers(-4, 5, (1, 16)).astype(np.float16)
    m9 = rng.integers(-4, 5, (16, 24)).astype(np.float16)
    c9 = rng.integers(-4, 5, (16, 1)).astype(np.float16)
    progs.append(
        tile_program(
            "tile2: GEMV-shaped (1 x 16 @ 16 x 24) and outer-product (K = 1) f16 matmuls",
            thin_matmuls,
            lambda d: (
                _out((1, 24), (1, 24), f32, d),
                _out((16, 16), (16, 16), f32, d),
                _in(v9, d),
                _in(m9, d),
                _in(c9, d),
            ),
            (0, 1),
            lambda: [
                v9.astype(np.float32) @ m9.astype(np.float32) + 0.5,
                c9.astype(np.float32) @ c9.T.astype(np.float32),
            ],
        )
    )

    # 10
    c10 = rng.standard_normal(32).astype(np.float32)

    def carried_ref() -> list[np.ndarray]:
        out = []
        for b in range(2):
            t = c10[b * 16 : (b + 1) * 16]
            acc = np.zeros(16, np.float32)
            s = np.float32(1.25)
            m, n = 7, 7
            p0, p1 = t, s
            seen = False
            for k in range(n, 0, -2):
                acc = acc + t * s
                s = np.float32(s * np.float32(0.5))
                m = m - k
                p0, p1 = p0 + np.float32(1), np.float32(p1 + s)
                seen = seen | (k == 3)
            out.append(acc + p0 * p1 + np.float32(m) + np.float32(100.0 if seen else 0.0))
        return [np.concatenate(out).astype(np.float32)]

    progs.append(
        tile_program(
            "tile2: loops carrying a tile, typed scalars, a tuple and a bool",
            carried,
            lambda d: (_out((32,), (16,), f32, d), _in(c10, d), 1.25, 7),
            (0,),
            carried_ref,
            rtol=1e-6,
        )
    )

    # 11
    table = (rng.integers(1, 50, (6, 9)) * np.where(rng.random((6, 9)) < 0.2, -1, 1)).astype(np.float32)
    rows = np.array([0, 5, -1, 2, 3, 9, 1, 4], np.int32)

    def gs_ref() -> list[np.ndarray]:
        picked = np.full((8, 8), -1.0, np.float32)
        for i, r in enumerate(rows):
            for j in range(8):
                c = j + 3
                if 0 <= r < 6 and c < 9:
                    picked[i, j] = table[r, c]
        moved = np.zeros((8, 8), np.float32)
        for i in range(8):
            for j in range(8):
                if picked[i, j] > 0:
                    moved[i, 7 - j] = picked[i, j] * 2
        return [picked, moved]

    progs.append(
        tile_program(
            "tile2: masked 2-D gather off the edge, scatter within the own tile",
            gather_scatter_2d,
            lambda d: (_out((8, 8), (4, 8), f32, d), _out((8, 8), (4, 8), f32, d), _in(table, d), _in(rows, d)),
            (0, 1),
            gs_ref,
        )
    )

    # 12
    x12 = rng.integers(-100, 100, (6, 8)).astype(np.int32)
    h12 = (rng.integers(-20, 20, (6, 8)) / 8).astype(np.float16)

    def scans_ref() -> list[np.ndarray]:
        def tiled(f: Callable[[np.ndarray], np.ndarray], a: np.ndarray) -> np.ndarray:
            return per_tile(a, (4, 8), lambda t, _i: f(t))

        cs = per_tile(h12.astype(np.float32), (4, 8), lambda t, _i: np.cumsum(t, 1))
        return [
            tiled(lambda t: np.maximum.accumulate(t, 0), x12),
            tiled(lambda t: np.minimum.accumulate(t, 0), x12),
            cs.astype(np.float16),
        ]

    progs.append(
        tile_program(
            "tile2: integer max/min scans along axis 0, f16 cumsum",
            scans,
            lambda d: (
                _out((6, 8), (4, 8), i32, d),
                _out((6, 8), (4, 8), i32, d),
                _out((6, 8), (4, 8), f16, d),
                _in(x12, d),
                _in(h12, d),
            ),
            (0, 1, 2),
            scans_ref,
        )
    )

    # 13
    x13 = np.array(
        [
            [1, 3, 3, np.nan, 0, -1, 3, 2],
            [-5, -5, 2, 2, 7, 7, -5, 0],
            [0, 0, 0, 0, 0, 0, 0, 0],
            [np.nan, 1, np.nan, 9, -9, 9, -9, 1],
        ],
        np.float32,
    )

    def argnan_ref() -> list[np.ndarray]:
        def first(t: np.ndarray, pick: str) -> np.ndarray:
            out = []
            for row in t:
                nan = np.flatnonzero(np.isnan(row))
                out.append(nan[0] if nan.size else (row.argmax() if pick == "max" else row.argmin()))
            return np.array(out)

        am = first(x13, "max") * 10 + first(x13, "min")
        with np.errstate(invalid="ignore"):
            counts = (x13 > 0).sum(1) + np.isnan(x13).sum()
        return [np.broadcast_to(am[:, None], (4, 1)).astype(np.int32), counts[:, None].astype(np.int64)]

    progs.append(
        tile_program(
            "tile2: argmax/argmin with NaN and ties, bool sums",
            arg_nan,
            lambda d: (_out((4, 1), (4, 1), i32, d), _out((4, 1), (4, 1), i64, d), _in(x13, d)),
            (0, 1),
            argnan_ref,
        )
    )

    # 14
    p14 = rng.integers(0, 256, 16).astype(np.uint8)
    q14 = rng.integers(0, 65536, 16).astype(np.uint16)
    r14 = rng.integers(-(2**62), 2**62, 16).astype(np.int64)

    def bits_ref() -> list[np.ndarray]:
        amt = np.arange(16)
        p, q, r = p14.astype(np.int64), q14.astype(np.int64), [int(v) for v in r14]

        def shl(v: int, s: int, width: int) -> int:
            return (v << s) % 2**width if s < width else 0

        # Python precedence: `|` binds looser than `^`, as in the kernel
        a8 = [(shl(int(p[i]), i, 8)) | ((int(p[i]) >> (i // 2)) ^ (~int(p[i]) % 256)) for i in range(16)]
        a16 = [
            ((int(q[i]) * 3 + 1) % 2**16 & 0xF0F0) | ((int(q[i]) >> (2 * i)) if 2 * i < 16 else 0) for i in range(16)
        ]

        def wrap64(v: int) -> int:
            return (v + 2**63) % 2**64 - 2**63

        a64 = []
        for i in range(16):
            v, s = r[i], int(amt[i]) * 5
            left = wrap64(v << s) if s < 64 else 0
            a64.append(wrap64(left ^ wrap64((v >> 63) + (v % -7) * (v // 1000))))
        return [np.array(a8, np.uint8), np.array(a16, np.uint16), np.array(a64, np.int64)]

    progs.append(
        tile_program(
            "tile2: bit operations on u8/u16/i64 tiles, shifts past the width",
            bit_ops,
            lambda d: (
                _out((16,), (16,), u8, d),
                _out((16,), (16,), u16, d),
                _out((16,), (16,), i64, d),
                _in(p14, d),
                _in(q14, d),
                _in(r14, d),
            ),
            (0, 1, 2),
            bits_ref,
        )
    )

    # 15
    h15 = rng.uniform(-3, 3, 32).astype(np.float16)
    b15 = round_bf16(rng.uniform(-3, 3, 32).astype(np.float32))
    d15 = rng.uniform(-3, 3, 32)

    def math_ref() -> list[np.ndarray]:
        def rh(v: np.ndarray) -> np.ndarray:  # each f16/bf16 op rounds its result once
            return np.asarray(v, np.float64).astype(np.float32).astype(np.float16).astype(np.float64)

        def rb(v: np.ndarray) -> np.ndarray:
            return round_bf16(np.asarray(v, np.float64).astype(np.float32)).astype(np.float64)

        h = h15.astype(np.float64)
        b = b15.astype(np.float64)
        return [
            rh(rh(np.exp2(h)) + rh(np.tanh(h))).astype(np.float16),
            rb(rb(np.sqrt(rb(rb(b * b) + 1))) + rb(np.sin(b))).astype(np.float32),
            np.log(d15 * d15 + 1) + 1 / np.sqrt(d15 * d15 + 2) + np.cos(d15),
        ]

    progs.append(
        tile_program(
            "tile2: math on f16, bf16 and f64 tiles",
            tile_math,
            lambda d: (
                _out((32,), (16,), f16, d),
                _out((32,), (16,), bf16, d),
                _out((32,), (16,), f64, d),
                _in(h15, d),
                _in(b15, d, bf16),
                _in(d15, d),
            ),
            (0, 1, 2),
            math_ref,
            rtol=1e-2,
        )
    )

    # 15b
    h15b = (rng.integers(-64, 64, (8, 16)) / 8).astype(np.float16)
    b15b = round_bf16((rng.integers(-300, 300, (8, 16)) / 16).astype(np.float32))

    def half_red_ref() -> list[np.ndarray]:
        h32 = h15b.astype(np.float32)
        return [
            h32.sum(1, keepdims=True).astype(np.float16),
            (h32.max(0, keepdims=True) - h32.min(0, keepdims=True)).astype(np.float16),
            round_bf16(b15b.sum(0, keepdims=True)),
            round_bf16(np.cumsum(b15b, 1)),
            (b15b.argmax(1) * 100 + h32.argmin(1)).astype(np.int32)[:, None],
        ]

    progs.append(
        tile_program(
            "tile2: f16/bf16 reductions, scans and arg-reductions",
            half_reductions,
            lambda d: (
                _out((8, 1), (8, 1), f16, d),
                _out((1, 16), (1, 16), f16, d),
                _out((1, 16), (1, 16), bf16, d),
                _out((8, 16), (8, 16), bf16, d),
                _out((8, 1), (8, 1), i32, d),
                _in(h15b, d),
                _in(b15b, d, bf16),
            ),
            (0, 1, 2, 3, 4),
            half_red_ref,
        )
    )

    # 16
    w16 = rng.integers(-8, 8, (64, 64)).astype(np.float32)
    for kernel, warps in ((wide_tile8, 8), (wide_tile1, 1)):
        progs.append(
            tile_program(
                f"tile2: a (64, 64) tile on {warps} warp(s): row sums, maxima, total",
                kernel,
                lambda d: (_out((64,), (64,), f32, d), _out((1,), (1,), f32, d), _in(w16, d)),
                (0, 1),
                lambda: [w16.sum(1) + w16.max(1), np.array([w16.sum()], np.float32)],
            )
        )

    # 17
    g17 = rng.integers(-50, 50, (10, 12)).astype(np.int32)
    progs.append(
        tile_program(
            "tile2: tile_shape as a load shape and a range bound, a 2-D grid",
            grid_2d,
            lambda d: (_out((10, 12), (4, 8), i32, d), _in(g17, d)),
            (0,),
            lambda: [per_tile(g17, (4, 8), lambda t, i: t + i[0] * 1000 + i[1] * 100 + 2 * 10 + 0 + 1 + 28)],
        )
    )

    # 18
    x18 = rng.standard_normal(35).astype(np.float32)
    y18 = rng.standard_normal(40).astype(np.float32)
    progs.append(
        tile_program(
            "tile2: independent_shapes, a shorter input reads zeros",
            short_input,
            lambda d: (_out((40,), (16,), f32, d), _in(x18, d), _in(y18, d)),
            (0,),
            lambda: [np.concatenate([x18, np.zeros(5, np.float32)]) + y18 * np.float32(2)],
        )
    )

    # 19
    x19 = rng.integers(-4, 5, (4, 8)).astype(np.float32)
    progs.append(
        tile_program(
            "tile2: a lambda helper and a helper returning a tuple",
            helpers,
            lambda d: (_out((4, 8), (2, 8), f32, d), _in(x19, d)),
            (0,),
            lambda: [(x19 * x19).sum(1, keepdims=True) * 8 - x19.sum(1, keepdims=True) ** 2 + x19 * x19],
        )
    )

    # 20
    x20 = rng.integers(-10, 10, 32).astype(np.int32)

    def bool_ref() -> list[np.ndarray]:
        a, b = x20 > 0, x20 % 2 == 0
        c = (a & b) | (~a ^ b)
        flags = a | (b & c)
        flags = flags ^ (a & ~b)
        return [(c.astype(np.int32) * 4 + (a | b) * 2 + (a ^ b)).astype(np.int32), flags]

    progs.append(
        tile_program(
            "tile2: bool tile logic and arithmetic",
            bool_logic,
            lambda d: (_out((32,), (16,), i32, d), _out((32,), (16,), bool_, d), _in(x20, d)),
            (0, 1),
            bool_ref,
        )
    )

    # 21
    x21 = rng.integers(-20, 40, 48).astype(np.int32)

    def atomics_ref() -> list[np.ndarray]:
        acc = np.zeros((3, 4), np.float32)
        for v in x21:
            acc[v % 3, :] += np.float32(v) * np.float32(0.5)
        top = np.zeros((2, 2), np.uint32)
        top[0, 1] = max(int(x21[k * 16 : (k + 1) * 16].max()) for k in range(3))
        low = np.zeros((2, 2), np.int64)
        low[1, 0] = min(0, min(int(x21[k * 16 : (k + 1) * 16].min()) * 3 for k in range(3)))
        return [np.ones(48, np.int32), acc, top, low]

    progs.append(
        tile_program(
            "tile2: atomics into 2-D AtomicTensors (f32 add, u32 max, i64 min)",
            atomics_2d,
            lambda d: (
                _out((48,), (16,), i32, d),
                tile.zeros((3, 4), f32, device=d),
                tile.zeros((2, 2), u32, device=d),
                tile.zeros((2, 2), i64, device=d),
                _in(x21, d),
            ),
            (0, 1, 2, 3),
            atomics_ref,
        )
    )

    # 22
    x22 = rng.integers(-9, 9, (2, 4, 4)).astype(np.float32)
    progs.append(
        tile_program(
            "tile2: reshape 3-D -> 1-D -> 3-D and a 3-D broadcast",
            reshape_3d,
            lambda d: (_out((4, 2, 4), (4, 2, 4), f32, d), _in(x22, d)),
            (0,),
            lambda: [(x22.reshape(32) * 2).reshape(4, 2, 4) + np.arange(4, dtype=np.float32)],
        )
    )

    # 23
    x23 = rng.integers(-9, 9, (6, 10)).astype(np.int32)
    progs.append(
        tile_program(
            "tile2: print and assert with a 2-D grid",
            print_assert,
            lambda d: (_out((6, 10), (4, 4), i32, d), _in(x23, d), 5),
            (0,),
            lambda: [x23 + 5],
        )
    )

    # 24
    progs.append(
        tile_program(
            "tile2: integer scalar parameters of each width as range bounds",
            int_scalars,
            lambda d: (_out((16,), (8,), i64, d), -3, 9, -(2**40), 2**32 - 1),
            (0,),
            lambda: [np.full(16, sum(range(-3, 9)) - 2**41 + 2**32 - 1, np.int64) + np.tile(np.arange(8), 2)],
        )
    )

    # host chains, graph, autotune
    x40 = rng.standard_normal(40).astype(np.float32)
    progs.append(_chain_program(x40))
    progs.append(_graph_program(rng.standard_normal(50).astype(np.float32)))
    progs.append(
        _mixed_graph_program(rng.standard_normal(100).astype(np.float32), rng.standard_normal(100).astype(np.float32))
    )
    progs.append(_autotune_program(rng.standard_normal(70).astype(np.float32)))
    return progs


PROGRAMS = _programs()
