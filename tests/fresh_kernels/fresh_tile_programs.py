"""Fresh tile programs (docs/tile.md, docs/numerics.md): loops carrying every kind of value, rebinding, scalar
parameters, integer division of negatives, casts, promotion, min/max/abs, `where`, reductions, ragged edges,
atomics, helpers and device print/assert."""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
from fresh_program import Program, Refusal, tile_program

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import bf16, f16, f32, f64, i8, i32, i64, u8, u32
from safekernels.tile import AtomicTensor, Partition, Tensor


def _out(shape: tuple[int, ...], tile_shape: tuple[int, ...], dtype: Any, device: sk.Device) -> Any:
    return tile.zeros(shape, dtype, device=device).partition(tile_shape)


def _in(a: np.ndarray, device: sk.Device) -> Any:
    return tile.from_numpy(a, device=device)


# 1. The loop variable reuses a name bound before the loop: Python keeps the last iteration's value after it.
@tile.kernel
def last_index(out: Annotated[Partition[i32], tile.Dims(8)], x: Tensor[f32]) -> None:
    k = 100
    for k in range(x.shape[0] // 8):  # noqa: B007 (k is read after the loop)
        pass
    out.store(tile.full((8,), k, i32))


@tile.kernel
def last_index_const(out: Annotated[Partition[i32], tile.Dims(8)]) -> None:
    k = 100
    for k in range(2, 11, 3):  # noqa: B007 (k is read after the loop)
        pass
    out.store(tile.full((8,), k, i32))


# 2. A tuple of tiles carried by the loop (a pair updated together).
@tile.kernel
def tile_pair(out: Partition[f32], x: Tensor[f32]) -> None:
    pair = (tile.zeros((8,), f32), tile.load_like(x, out))
    for _ in range(3):
        pair = (pair[0] + pair[1], pair[1] * 2.0)
    out.store(pair[0])


# 3. Numbers unpacked and swapped each iteration (Fibonacci), and a counter rebound after the loop.
@tile.kernel
def fibonacci(out: Annotated[Partition[i32], tile.Dims(8)]) -> None:
    a, b = 0, 1
    steps = 0
    for _ in range(tile.bid(0) + 5):
        a, b = b, a + b
        steps += 1
    steps = steps * 1000 + a
    out.store(tile.full((8,), steps, i32))


# 4. Row sums over column tiles of a ragged matrix: a carried tile accumulator and a carried tile count.
@tile.kernel
def ragged_row_sums(out: Partition[f32], tiles: Partition[i32], x: Tensor[f32]) -> None:
    parts = x.partition((8, 8))
    acc = tile.zeros((8,), f32)
    seen = 0
    for k in range(parts.num_tiles(1)):
        acc = acc + tile.sum(parts.load((tile.bid(0), k)), axis=1)
        seen = seen + 1
    out.store(acc)
    tiles.store(tile.full((8,), seen, i32))


# 5. Nested loops: the value updated only in the inner loop, the inner loop variable shadowing the outer one.
@tile.kernel
def nested_shadow(out: Annotated[Partition[i64], tile.Dims(4)]) -> None:
    total = 0
    for i in range(3):
        for j in range(i + 1):
            total = total * 3 + i + j
        for i in range(5, 7):
            total = total + i
    out.store(tile.full((4,), total, i64))


# 6. Scalar parameters of each kind, mixed.
@tile.kernel
def scalar_params(
    wide: Annotated[Partition[i64], tile.Dims(4)],
    ratio: Annotated[Partition[f64], tile.Dims(4)],
    wrapped: Annotated[Partition[u32], tile.Dims(4)],
    big: i64,
    shift: i32,
    scale: f32,
    precise: f64,
    flag: bool,
    count: u32,
) -> None:
    wide.store(tile.full((4,), big + shift * 2 + int(flag), i64))
    ratio.store(tile.full((4,), precise * 3.0 + precise / 7.0, f64) + tile.full((4,), scale, f32).astype(f64))
    wrapped.store(tile.full((4,), count + 5, u32))


# 7. Integer division and modulo of negatives: tiles (`//` `%` floor, `/` truncating) and scalars.
@tile.kernel
def negative_division(floor_q: Partition[i32], rem: Partition[i32], trunc_q: Partition[i32], x: Tensor[i32]) -> None:
    t = tile.load_like(x, floor_q)
    floor_q.store(t // 3 + t // -4)
    rem.store(t % 3 + t % -5)
    trunc_q.store(t / 3)


@tile.kernel
def negative_scalar_division(out: Annotated[Partition[i32], tile.Dims(8)], m: i32) -> None:
    a = -7 - tile.bid(0)
    out.store(tile.full((8,), (a // 2) * 100 + (a % 3) * 10 + (m // -3) + m % -4, i32))


@tile.kernel
def folded_division(out: Annotated[Partition[i32], tile.Dims(8)]) -> None:
    out.store(tile.full((8,), (-7 // 2) * 1000 + (-7 % 3) * 100 + (7 % -3) * 10 + (-9 // -4), i32))


# 8. Casts: float -> int truncation toward zero, saturation, NaN, narrowing of ints, f16 rounding.
@tile.kernel
def casts(
    small: Partition[i32], bytes_: Partition[u8], halves: Partition[f16], tiny: Partition[i8], x: Tensor[f32]
) -> None:
    t = tile.load_like(x, small)
    small.store(t.astype(i32))
    bytes_.store((t.astype(i32) & 255).astype(u8))
    halves.store(t.astype(f16))
    tiny.store(t.astype(i32).astype(i8))


# 9. Mixed int/float scalar promotion: extents and block ids with floats and typed parameters.
@tile.kernel
def promotion(out: Partition[f32], x: Tensor[f32], k: i32, s: f32) -> None:
    n = x.shape[0]
    quarter = n / 4
    half = n * 0.5
    mixed = k * s + tile.bid(0) / 2
    out.store(tile.load_like(x, out) * 0.0 + quarter + half + mixed)


# 10. Scalar min/max/abs with negatives and floats, and `tile.where` with scalars.
@tile.kernel
def extremes(ints: Annotated[Partition[i32], tile.Dims(8)], floats: Partition[f32], x: Tensor[f32]) -> None:
    b = tile.bid(0)
    lo = min(b - 3, -b, 2)
    hi = max(b * -2, abs(b - 5), -1)
    ints.store(tile.full((8,), lo * 100 + hi, i32))
    t = tile.load_like(x, floats)
    f = max(b * 0.5 - 1.0, -0.25)
    floats.store(tile.where(t > f, t, f) + tile.where(t < 0.0, 1.0, 0.0) + abs(f - 1.5))


# 11. Reductions along each axis, keepdims, and arg-reductions with ties.
@tile.kernel
def reductions(
    rows: Partition[f32], cols: Partition[f32], total: Partition[f32], where: Partition[i32], x: Tensor[f32]
) -> None:
    t = x.load((0, 0), (4, 8))
    rows.store(tile.sum(t, axis=1) + tile.max(t, axis=1) - tile.min(t, axis=1))
    cols.store(tile.sum(t, axis=0) - tile.reshape(tile.max(t, axis=0, keepdims=True), (8,)))
    total.store(tile.reshape(tile.sum(tile.sum(t, axis=0, keepdims=True), axis=1), (1,)) + tile.max(t))
    where.store(tile.argmax(t, axis=0) * 10 + tile.argmin(t, axis=0))


# 12. A ragged edge: row softmax of a (5, 13) matrix in (8, 16) tiles, padding columns masked.
@tile.kernel
def ragged_softmax(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    cols = tile.reshape(tile.iota(16, i32), (1, 16))
    t = tile.where(cols < x.shape[1], t, -1e30)
    e = tile.exp(t - tile.max(t, axis=1, keepdims=True))
    out.store(e / tile.sum(e, axis=1, keepdims=True))


# 13. Atomics: a histogram of signed values, the largest and smallest value, masked.
@tile.kernel
def histogram(
    done: Partition[i32], counts: AtomicTensor[i32], top: AtomicTensor[i32], low: AtomicTensor[i32], x: Tensor[i32]
) -> None:
    v = tile.load_like(x, done)
    keep = v >= -4
    tile.atomic_add(counts, (v + 4,), 1, mask=keep & (v < 4))
    tile.atomic_max(top, (0,), tile.max(v))
    tile.atomic_min(low, (0,), tile.min(tile.where(keep, v, 99)))
    done.store(v * 0 + 1)


# 14. A helper with a loop carrying a tile and a number, returning a tuple.
@tile.function
def power_and_steps(t: Any, n: int) -> tuple[Any, int]:
    acc = t
    steps = 0
    for _ in range(n - 1):
        acc = acc * t
        steps += 1
    return acc, steps


@tile.kernel
def helper_loop(out: Partition[f32], x: Tensor[f32]) -> None:
    cube, steps = power_and_steps(tile.load_like(x, out), 3)
    out.store(cube + steps)


# 15. Shadowing and rebinding: a scalar parameter rebound, a tile rebound in a loop, a name reused after it.
@tile.kernel
def rebinding(out: Partition[i32], x: Tensor[i32], n: i32) -> None:
    t = tile.load_like(x, out)
    for k in range(3):
        n = n * 2 - k  # type: ignore[assignment]
        t = t + n
    n = n + 1  # type: ignore[assignment]
    t = t * n
    out.store(t)


# 16. A running prefix carried across tiles of one row (cumsum of a long row in (1, 8) pieces).
@tile.kernel
def running_prefix(out: Annotated[Partition[f32], tile.Dims(1, -1)], x: Tensor[f32]) -> None:
    parts = x.partition((1, 8))
    carry = tile.zeros((1, 1), f32)
    for k in range(parts.num_tiles(1)):
        piece = tile.cumsum(parts.load((tile.bid(0), k)), axis=1) + carry
        carry = tile.reshape(tile.max(piece, axis=1, keepdims=True), (1, 1))
    out.store(tile.broadcast_to(carry, (1, 4)))


# 17. Loops with steps: negative steps, run-time bounds, zero trips; a bool carried.
@tile.kernel
def stepped_loops(out: Annotated[Partition[i32], tile.Dims(8)]) -> None:
    b = tile.bid(0)
    down = 0
    for k in range(b + 9, -1, -3):
        down = down * 2 + k
    up = 0
    for k in range(b, 20, b + 2):
        up = up + k
    none = 5
    for _ in range(b, b):
        none = 0
    found = False
    for k in range(6):
        found = found | (k == b + 2)
    out.store(tile.full((8,), down * 10000 + up * 100 + none * 10 + int(found), i32))


# 17b. A run-time step of either sign (a scalar parameter), and the loop variable after it.
@tile.kernel
def runtime_step(out: Annotated[Partition[i32], tile.Dims(8)], step: i32) -> None:
    v = 0
    k = -100
    for k in range(tile.bid(0) * 4 - 6 * step, 7 * step, step):
        v = v * 2 + k
    out.store(tile.full((8,), v * 1000 + k, i32))


# 18. Integer wrap-around and shifts on tiles.
@tile.kernel
def wraparound(out: Partition[i32], bits: Partition[u32], x: Tensor[i32]) -> None:
    t = tile.load_like(x, out)
    out.store(t * 65537 + (t << 20) - (t >> 3))
    bits.store((t.astype(u32) << 28) + (t.astype(u32) >> 1) + 4294967295)


# 19. i8 at its minimum: truncating `/`, floor `//`, `%`.
@tile.kernel
def int8_edges(q: Partition[i8], fq: Partition[i8], r: Partition[i8], x: Tensor[i8]) -> None:
    t = tile.load_like(x, q)
    q.store(t / -3)
    fq.store(t // -3)
    r.store(t % -3)


# 20. Device print and a passing assert (thread 0 of each block prints).
@tile.kernel
def print_assert(out: Partition[f32], x: Tensor[f32], limit: i32) -> None:
    n = x.shape[0]
    assert n <= limit, "too many rows"
    print("block", tile.bid(0), "of", tile.num_blocks(0), "rows", n)
    out.store(tile.load_like(x, out) + 1.0)


# 21. A tile carried through a nested loop, updated in the inner loop, rebound after both loops.
@tile.kernel
def nested_tile(out: Partition[f32], x: Tensor[f32]) -> None:
    acc = tile.load_like(x, out)
    for i in range(2):
        for j in range(3):
            acc = acc * 0.5 + (i * 3 + j)
    acc = acc - 1.0
    out.store(acc)


# 22. f64 tiles and math; where on a tile condition with two scalars.
@tile.kernel
def f64_math(out: Partition[f64], mask: Partition[f32], x: Tensor[f64]) -> None:
    t = tile.load_like(x, out)
    out.store(tile.sqrt(t * t + 1.0) - t / 3.0)
    mask.store(tile.where(t > 0.5, 1.0, 0.0))


# 23. f16/bf16 matmuls whose shapes the tensor cores cannot tile (8x8x8, 16x24x8): the FMA units on the GPU.
@tile.kernel
def small_matmul(out: Partition[f32], a: Tensor[f16], b: Tensor[f16]) -> None:
    acc = tile.full((8, 8), 0.5, f32)
    out.store(tile.matmul(a.load((0, 0), (8, 8)), b.load((0, 0), (8, 8)), acc))


@tile.kernel
def odd_matmul(out: Partition[f32], a: Tensor[bf16], b: Tensor[bf16]) -> None:
    acc = tile.zeros((16, 24), f32)
    bt = tile.transpose(b.load((0, 0), (24, 8)))
    out.store(tile.matmul(a.load((0, 0), (16, 8)), bt, acc))


@tile.kernel
def constant_matmul(out: Partition[f32]) -> None:
    a = tile.full((8, 8), 0.5, f16) + tile.full((8, 8), 0.25, f16)
    out.store(tile.matmul(a, tile.full((8, 8), 3.0, f16), tile.full((8, 8), 1.0, f32)))


# 24. Two typed float scalars promote as numpy does: f32 * f64 is f64 (the GPU truncated the f64 to f32).
@tile.kernel
def float_params(out: Annotated[Partition[f64], tile.Dims(8)], s: f32, p: f64) -> None:
    out.store(tile.full((8,), s * p + p / s, f64))


def _runtime_step_ref(step: int) -> np.ndarray:
    rows = []
    for b in range(2):
        v, k = 0, -100
        for k in range(b * 4 - 6 * step, 7 * step, step):
            v = v * 2 + k
        rows.append(np.full(8, v * 1000 + k, np.int32))
    return np.concatenate(rows)


def _programs() -> list[Program]:
    rng = np.random.default_rng(21)
    x40 = np.zeros(40, np.float32)
    small = rng.standard_normal(16).astype(np.float32)
    rag = rng.standard_normal((37, 20)).astype(np.float32)
    negs = np.arange(-20, 20, dtype=np.int32)
    red = (np.arange(32) % 7 - 3).astype(np.float32).reshape(4, 8)
    soft = rng.standard_normal((5, 13)).astype(np.float32)
    hist = rng.integers(-6, 6, 24).astype(np.int32)
    ints = rng.integers(-50, 50, 16).astype(np.int32)
    long_row = rng.integers(-3, 4, (3, 29)).astype(np.float32)
    i8s = np.array([-128, -127, -7, -3, -1, 0, 1, 2, 3, 7, 100, 127, -128, -2, 5, 9], np.int8)
    f64s = rng.standard_normal(16)
    cast_in = np.array(
        [-2.7, -0.5, 0.5, 2.9, 1e10, -1e10, np.nan, 255.9, 256.5, -129.2, 65519.0, 3.14159, -0.0, 1e-8, 200.0, 127.6],
        np.float32,
    )

    def fib_ref() -> list[np.ndarray]:
        out = []
        for b in range(2):
            a, c = 0, 1
            for _ in range(b + 5):
                a, c = c, a + c
            out.append(np.full(8, (b + 5) * 1000 + a, np.int32))
        return [np.concatenate(out)]

    def nested_ref() -> list[np.ndarray]:
        total = 0
        for i in range(3):
            for j in range(i + 1):
                total = total * 3 + i + j
            for i in range(5, 7):
                total = total + i
        return [np.full(4, total, np.int64)]

    def scalar_ref() -> list[np.ndarray]:
        big, shift, scale, precise, count = 2**40, -7, np.float32(1.5), 0.1, np.uint32(2**32 - 3)
        return [
            np.full(4, big + shift * 2 + 1, np.int64),
            np.full(4, precise * 3.0 + precise / 7.0 + float(scale)),
            np.full(4, np.uint32((int(count) + 5) % 2**32), np.uint32),
        ]

    def division_ref() -> list[np.ndarray]:
        t = negs.astype(np.int64)
        trunc = np.trunc(t / 3).astype(np.int32)
        return [(t // 3 + t // -4).astype(np.int32), (t % 3 + t % -5).astype(np.int32), trunc]

    def scalar_div_ref() -> list[np.ndarray]:
        m = -11
        rows = []
        for b in range(2):
            a = -7 - b
            rows.append(np.full(8, (a // 2) * 100 + (a % 3) * 10 + (m // -3) + m % -4, np.int32))
        return [np.concatenate(rows)]

    folded_value = (-7 // 2) * 1000 + (-7 % 3) * 100 + (7 % -3) * 10 + (-9 // -4)

    def cast_ref() -> list[np.ndarray]:
        with np.errstate(invalid="ignore"):
            tr = np.trunc(np.nan_to_num(cast_in.astype(np.float64), nan=0.0))
        as_i32 = np.clip(tr, -(2**31), 2**31 - 1).astype(np.int32)
        wrapped = ((as_i32.astype(np.int64) + 128) % 256 - 128).astype(np.int8)
        with np.errstate(over="ignore"):
            halves = cast_in.astype(np.float16)
        return [as_i32, (as_i32 & 255).astype(np.uint8), halves, wrapped]

    def promo_ref() -> list[np.ndarray]:
        n = 16
        rows = [
            np.full(
                8,
                np.float32(n / 4) + np.float32(n * 0.5) + (np.float32(3) * np.float32(0.25) + np.float32(b / 2)),
                np.float32,
            )
            for b in range(2)
        ]
        return [np.concatenate(rows)]

    def extremes_ref() -> list[np.ndarray]:
        ints_out, floats_out = [], []
        for b in range(2):
            lo, hi = min(b - 3, -b, 2), max(b * -2, abs(b - 5), -1)
            ints_out.append(np.full(8, lo * 100 + hi, np.int32))
            t = small[b * 8 : (b + 1) * 8]
            f = np.float32(max(b * 0.5 - 1.0, -0.25))
            floats_out.append(
                np.where(t > f, t, f)
                + np.where(t < 0, 1.0, 0.0).astype(np.float32)
                + np.float32(abs(f - np.float32(1.5)))
            )
        return [np.concatenate(ints_out), np.concatenate(floats_out).astype(np.float32)]

    def red_ref() -> list[np.ndarray]:
        return [
            red.sum(1) + red.max(1) - red.min(1),
            red.sum(0) - red.max(0),
            np.array([red.sum() + red.max()], np.float32),
            (red.argmax(0) * 10 + red.argmin(0)).astype(np.int32),
        ]

    def softmax_ref() -> list[np.ndarray]:
        e = np.exp(soft - soft.max(1, keepdims=True))
        return [(e / e.sum(1, keepdims=True)).astype(np.float32)]

    def hist_ref() -> list[np.ndarray]:
        keep = (hist >= -4) & (hist < 4)
        counts = np.bincount(hist[keep] + 4, minlength=8).astype(np.int32)
        top = max(int(hist[i : i + 8].max()) for i in range(0, 24, 8))
        low = min(int(np.where(hist[i : i + 8] >= -4, hist[i : i + 8], 99).min()) for i in range(0, 24, 8))
        return [counts, np.array([top], np.int32), np.array([low], np.int32)]

    def rebinding_ref() -> list[np.ndarray]:
        t, n = ints.astype(np.int64), -3
        for k in range(3):
            n = n * 2 - k
            t = t + n
        n = n + 1
        return [(t * n).astype(np.int32)]

    def prefix_ref() -> list[np.ndarray]:
        rows = []
        for r in long_row:
            carry = np.float32(0)
            for k in range(0, 29, 8):
                piece = np.cumsum(np.pad(r[k : k + 8], (0, max(0, k + 8 - 29)))) + carry
                carry = piece.max()
            rows.append(np.full(4, carry, np.float32))
        return [np.stack(rows)]

    def steps_ref() -> list[np.ndarray]:
        rows = []
        for b in range(2):
            down = 0
            for k in range(b + 9, -1, -3):
                down = down * 2 + k
            up = sum(range(b, 20, b + 2))
            found = any(k == b + 2 for k in range(6))
            rows.append(np.full(8, down * 10000 + up * 100 + 5 * 10 + int(found), np.int32))
        return [np.concatenate(rows)]

    def wrap_ref() -> list[np.ndarray]:
        t = ints.astype(np.int64)
        a = (t * 65537 + (t << 20) - (t >> 3)) & 0xFFFFFFFF
        u = t & 0xFFFFFFFF
        bits = ((u << 28) + (u >> 1) + 4294967295) & 0xFFFFFFFF
        return [a.astype(np.uint32).view(np.int32), bits.astype(np.uint32)]

    def int8_ref() -> list[np.ndarray]:
        t = i8s.astype(np.int64)

        def wrap(v: np.ndarray) -> np.ndarray:
            return ((v + 128) % 256 - 128).astype(np.int8)

        return [wrap(np.trunc(t / -3).astype(np.int64)), wrap(t // -3), wrap(t % -3)]

    def nested_tile_ref() -> list[np.ndarray]:
        acc = small.copy()
        for i in range(2):
            for j in range(3):
                acc = acc * np.float32(0.5) + np.float32(i * 3 + j)
        return [acc - np.float32(1)]

    ha = (rng.integers(-4, 5, (8, 8)) / 4).astype(np.float16)
    hb = (rng.integers(-4, 5, (8, 8)) / 8).astype(np.float16)
    ba = (rng.integers(-4, 5, (16, 8)) / 4).astype(np.float32)
    bb = (rng.integers(-4, 5, (24, 8)) / 2).astype(np.float32)
    progs = [
        tile_program(
            "tile: loop variable after the loop",
            last_index,
            lambda d: (_out((16,), (8,), i32, d), _in(x40, d)),
            (0,),
            lambda: [np.full(16, 4, np.int32)],
        ),
        tile_program(
            "tile: loop variable after a constant loop (folded)",
            last_index_const,
            lambda d: (_out((8,), (8,), i32, d),),
            (0,),
            lambda: [np.full(8, 8, np.int32)],
            folded=(r"store <4 x i32> splat \(i32 8\)",),
        ),
        tile_program(
            "tile: tuple of tiles carried",
            tile_pair,
            lambda d: (_out((16,), (8,), f32, d), _in(small, d)),
            (0,),
            lambda: [(small + small * 2) + small * 4],
        ),
        tile_program(
            "tile: unpacked numbers swapped in a loop", fibonacci, lambda d: (_out((16,), (8,), i32, d),), (0,), fib_ref
        ),
        tile_program(
            "tile: carried tile and count over ragged tiles",
            ragged_row_sums,
            lambda d: (_out((37,), (8,), f32, d), _out((37,), (8,), i32, d), _in(rag, d)),
            (0, 1),
            lambda: [rag.sum(1), np.full(37, 3, np.int32)],
            rtol=1e-5,
        ),
        tile_program(
            "tile: nested loops with a shadowed loop variable",
            nested_shadow,
            lambda d: (_out((4,), (4,), i64, d),),
            (0,),
            nested_ref,
            folded=(),
        ),
        tile_program(
            "tile: scalar parameters of each kind",
            scalar_params,
            lambda d: (
                _out((4,), (4,), i64, d),
                _out((4,), (4,), f64, d),
                _out((4,), (4,), u32, d),
                2**40,
                -7,
                1.5,
                0.1,
                True,
                2**32 - 3,
            ),
            (0, 1, 2),
            scalar_ref,
        ),
        tile_program(
            "tile: integer division of negative tiles",
            negative_division,
            lambda d: (
                _out((40,), (16,), i32, d),
                _out((40,), (16,), i32, d),
                _out((40,), (16,), i32, d),
                _in(negs, d),
            ),
            (0, 1, 2),
            division_ref,
        ),
        tile_program(
            "tile: integer division of negative scalars",
            negative_scalar_division,
            lambda d: (_out((16,), (8,), i32, d), -11),
            (0,),
            scalar_div_ref,
        ),
        tile_program(
            "tile: folded division of negative literals",
            folded_division,
            lambda d: (_out((8,), (8,), i32, d),),
            (0,),
            lambda: [np.full(8, folded_value, np.int32)],
            folded=(rf"store <4 x i32> splat \(i32 {folded_value}\)",),
        ),
        tile_program(
            "tile: casts",
            casts,
            lambda d: (
                _out((16,), (16,), i32, d),
                _out((16,), (16,), u8, d),
                _out((16,), (16,), f16, d),
                _out((16,), (16,), i8, d),
                _in(cast_in, d),
            ),
            (0, 1, 2, 3),
            cast_ref,
        ),
        tile_program(
            "tile: mixed int/float scalar promotion",
            promotion,
            lambda d: (_out((16,), (8,), f32, d), _in(np.zeros(16, np.float32), d), 3, 0.25),
            (0,),
            promo_ref,
        ),
        tile_program(
            "tile: scalar min/max/abs and where",
            extremes,
            lambda d: (_out((16,), (8,), i32, d), _out((16,), (8,), f32, d), _in(small, d)),
            (0, 1),
            extremes_ref,
        ),
        tile_program(
            "tile: reductions along each axis",
            reductions,
            lambda d: (
                _out((4,), (4,), f32, d),
                _out((8,), (8,), f32, d),
                _out((1,), (1,), f32, d),
                _out((8,), (8,), i32, d),
                _in(red, d),
            ),
            (0, 1, 2, 3),
            red_ref,
        ),
        tile_program(
            "tile: ragged softmax",
            ragged_softmax,
            lambda d: (_out((5, 13), (8, 16), f32, d), _in(soft, d)),
            (0,),
            softmax_ref,
            rtol=2e-6,
        ),
        tile_program(
            "tile: atomics histogram",
            histogram,
            lambda d: (
                _out((24,), (8,), i32, d),
                tile.zeros((8,), i32, device=d),
                tile.full((1,), -99, i32, device=d),
                tile.full((1,), 99, i32, device=d),
                _in(hist, d),
            ),
            (1, 2, 3),
            hist_ref,
        ),
        tile_program(
            "tile: helper with a loop",
            helper_loop,
            lambda d: (_out((16,), (8,), f32, d), _in(small, d)),
            (0,),
            lambda: [small * small * small + 2],
        ),
        tile_program(
            "tile: rebinding a parameter in a loop",
            rebinding,
            lambda d: (_out((16,), (8,), i32, d), _in(ints, d), -3),
            (0,),
            rebinding_ref,
        ),
        tile_program(
            "tile: running prefix carried across tiles",
            running_prefix,
            lambda d: (_out((3, 4), (1, 4), f32, d), _in(long_row, d)),
            (0,),
            prefix_ref,
        ),
        tile_program(
            "tile: stepped, negative and zero-trip loops",
            stepped_loops,
            lambda d: (_out((16,), (8,), i32, d),),
            (0,),
            steps_ref,
        ),
        tile_program(
            "tile: run-time negative step",
            runtime_step,
            lambda d: (_out((16,), (8,), i32, d), -2),
            (0,),
            lambda: [_runtime_step_ref(-2)],
        ),
        tile_program(
            "tile: run-time positive step",
            runtime_step,
            lambda d: (_out((16,), (8,), i32, d), 3),
            (0,),
            lambda: [_runtime_step_ref(3)],
        ),
        tile_program(
            "tile: f16 matmul of 8x8 tiles",
            small_matmul,
            lambda d: (_out((8, 8), (8, 8), f32, d), _in(ha, d), _in(hb, d)),
            (0,),
            lambda: [ha.astype(np.float32) @ hb.astype(np.float32) + np.float32(0.5)],
        ),
        tile_program(
            "tile: bf16 matmul 16x24x8 with a transposed B",
            odd_matmul,
            lambda d: (
                _out((16, 24), (16, 24), f32, d),
                tile.from_numpy(ba, dtype=bf16, device=d),
                tile.from_numpy(bb, dtype=bf16, device=d),
            ),
            (0,),
            lambda: [ba @ bb.T],
        ),
        tile_program(
            "tile: constant f16 matmul (folded)",
            constant_matmul,
            lambda d: (_out((8, 8), (8, 8), f32, d),),
            (0,),
            lambda: [np.full((8, 8), 19.0, np.float32)],
            folded=(r"splat \(float 1\.900000e\+01\)",),
        ),
        tile_program(
            "tile: f32 and f64 scalar parameters promote to f64",
            float_params,
            lambda d: (_out((8,), (8,), f64, d), 0.1, 3.0),
            (0,),
            lambda: [np.full(8, float(np.float32(0.1)) * 3.0 + 3.0 / float(np.float32(0.1)))],
            folded=(r"fmul double", r"fdiv double"),
        ),
        tile_program(
            "tile: integer wrap-around and shifts",
            wraparound,
            lambda d: (_out((16,), (8,), i32, d), _out((16,), (8,), u32, d), _in(ints, d)),
            (0, 1),
            wrap_ref,
        ),
        tile_program(
            "tile: i8 division at the minimum",
            int8_edges,
            lambda d: (_out((16,), (16,), i8, d), _out((16,), (16,), i8, d), _out((16,), (16,), i8, d), _in(i8s, d)),
            (0, 1, 2),
            int8_ref,
        ),
        tile_program(
            "tile: print and a passing assert",
            print_assert,
            lambda d: (_out((16,), (8,), f32, d), _in(small, d), 16),
            (0,),
            lambda: [small + 1],
        ),
        tile_program(
            "tile: tile carried through nested loops",
            nested_tile,
            lambda d: (_out((16,), (8,), f32, d), _in(small, d)),
            (0,),
            nested_tile_ref,
        ),
        tile_program(
            "tile: f64 math and where with scalars",
            f64_math,
            lambda d: (_out((16,), (8,), f64, d), _out((16,), (8,), f32, d), _in(f64s, d)),
            (0, 1),
            lambda: [np.sqrt(f64s * f64s + 1) - f64s / 3, (f64s > 0.5).astype(np.float32)],
            rtol=1e-15,
        ),
    ]
    return progs


PROGRAMS = _programs()


# Refused alike: a tensor parameter rebound in a loop (its value cannot change per iteration on the GPU).
@tile.kernel
def swap_inputs(out: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    src = x
    other = y
    acc = tile.zeros((8,), f32)
    for _ in range(3):
        acc = acc + tile.load_like(src, out)
        src, other = other, src
    out.store(acc)


# Refused alike: the loop variable reuses the name of a tile.
@tile.kernel
def loop_var_reuses_tile(out: Partition[f32], x: Tensor[f32]) -> None:
    k = tile.load_like(x, out)
    for k in range(3):  # type: ignore[assignment]  # noqa: B007 (refused: k was a tile)
        pass
    out.store(tile.load_like(x, out))


# Refused alike: a literal step of 0 (Python's range() raises ValueError).
@tile.kernel
def zero_step(out: Partition[f32], x: Tensor[f32]) -> None:
    acc = tile.load_like(x, out)
    for _ in range(0, 4, 0):
        acc = acc + 1.0
    out.store(acc)


# Refused alike: a name bound only inside the loop, read after it (the loop may run zero times).
@tile.kernel
def loop_only_name(out: Partition[f32], x: Tensor[f32]) -> None:
    for k in range(x.shape[0] // 8):
        last = tile.load_like(x, out) * k
    out.store(last)


def _refusal(name: str, kernel: Any, code: str, line_text: str) -> Refusal:
    def make(d: sk.Device) -> tuple[Any, ...]:
        n = len(kernel.params) - 1
        return (_out((8,), (8,), f32, d), *[_in(np.ones(8, np.float32), d) for _ in range(n)])

    def run(d: sk.Device) -> list[np.ndarray]:
        stream = d.new_stream()
        kernel(*make(d)).sync_on(stream)
        return []

    return Refusal(name, run, lambda arch: kernel.inspect(*make(sk.Device.cpu()), arch=arch), code, line_text)


REFUSALS = [
    _refusal("tile: a tensor parameter swapped in a loop", swap_inputs, "SK023", "for _ in range(3):"),
    _refusal("tile: a loop variable reusing a tile's name", loop_var_reuses_tile, "SK023", "for k in range(3):"),
    _refusal("tile: a literal range step of 0", zero_step, "SK023", "for _ in range(0, 4, 0):"),
    _refusal("tile: a name bound only inside a loop, read after it", loop_only_name, "SK002", "out.store(last)"),
]
