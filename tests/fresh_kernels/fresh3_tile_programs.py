"""Third batch of fresh tile programs, written from docs/tile.md, docs/numerics.md and docs/autotune.md as a new
user would, in forms the first two batches did not use: masked means over a ragged 1-D tensor, column maxima of
a ragged 2-D tensor with the padding masked, a row layer norm, outer products by broadcasting (8, 1) and (1, 8)
loads, `where` with typed i8 scalars, reductions and scans that wrap in i8/i16, f64 cumsum and i32 min-scans,
chained bf16 matmuls, f16 matmuls on 8 warps and on 2, `astype` chains (f64 -> bf16 included), integer `/ // %`
of negatives in i16/i64/u8, scalar specials (NaN in `min`/`max`, -0.0, u8/i16 wrap, shifts past the width),
NaN and -0.0 through `maximum`/`minimum`/`max`, math on f64 specials, f64/u64/i32 atomics with dropped indices,
`iota`/`full` of narrow and wide dtypes, a 2-D gather of i16 with `other`, bool reductions, wide ragged rows on 2
warps, `@tile.autotune` over a 2-D tile, a `graph_on` replay that bumps an `AtomicTensor`, and a `then` chain
that repartitions.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

import numpy as np
from fresh2_simt_programs import round_bf16
from fresh_program import Program, Refusal, tile_program

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import bf16, f16, f32, f64, i8, i16, i32, i64, u8, u16, u64
from safekernels.tile import AtomicTensor, Partition, Tensor


def _out(shape: tuple[int, ...], tile_shape: tuple[int, ...], dtype: Any, device: sk.Device) -> Any:
    return tile.zeros(shape, dtype, device=device).partition(tile_shape)


def _in(a: np.ndarray, device: sk.Device, dtype: Any = None) -> Any:
    return tile.from_numpy(a, device=device, dtype=dtype)


def _wrap(value: int, bits: int, signed: bool) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if signed and value >= 1 << (bits - 1) else value


# 1. Means of a ragged 1-D tensor, one per tile of 16: the padding of the last tile masked out of sum and count.
@tile.kernel
def masked_means(means: Partition[f32], x: Tensor[f32]) -> None:
    b = tile.bid(0)
    t = x.load((b,), (16,))
    valid = tile.iota(16, i32) + b * 16 < x.shape[0]
    total = tile.sum(tile.where(valid, t, 0.0), axis=0, keepdims=True)
    count = tile.sum(valid.astype(f32), axis=0, keepdims=True)
    means.store(total / count)


# 2. Column maxima of a ragged (37, 20) matrix in (16, 8) tiles: padding rows set to the `lowest` scalar first.
@tile.kernel
def column_max(out: Partition[f32], x: Tensor[f32], lowest: f32) -> None:
    t = x.load((tile.bid(0), tile.bid(1)), (16, 8))
    rows = tile.reshape(tile.iota(16, i32), (16, 1)) + tile.bid(0) * 16 < x.shape[0]
    out.store(tile.max(tile.where(rows, t, lowest), axis=0, keepdims=True))


# 3. Layer norm over rows of 32, two rows per tile block, gamma and beta as (1, 32) loads.
@tile.kernel
def layer_norm(y: Partition[f32], x: Tensor[f32], gamma: Tensor[f32], beta: Tensor[f32]) -> None:
    t = tile.load_like(x, y)
    mean = tile.sum(t, axis=1, keepdims=True) / 32.0
    d = t - mean
    var = tile.sum(d * d, axis=1, keepdims=True) / 32.0
    y.store(d * tile.rsqrt(var + 1e-5) * gamma.load((0, 0), (1, 32)) + beta.load((0, 0), (1, 32)))


# 4. Outer products by broadcasting an (8, 1) load against a (1, 8) load, and broadcast_to.
@tile.kernel
def outer(out: Partition[f32], a: Tensor[f32], b: Tensor[f32]) -> None:
    ta = a.load((tile.bid(0), 0), (8, 1))
    tb = b.load((0, tile.bid(1)), (1, 8))
    out.store(ta * tb + tile.broadcast_to(ta, (8, 8)) - tb)


# 5. `where` with a float literal, and with two typed i8 scalars (the result is i8: numerics.md), then an i8
#    product that wraps.
@tile.kernel
def where_typed(z: Partition[f32], w: Partition[i8], x: Tensor[f32], n: Tensor[i8], neg: i8, pos: i8) -> None:
    t = tile.load_like(x, z)
    z.store(tile.where(t > 0.0, t, t * 0.01))
    m = tile.load_like(n, w)
    w.store(tile.where(m < 0, neg, pos) * m)


# 6. Reductions and scans keep the dtype: an i8 sum and an i16 cumsum wrap, a u8 max.
@tile.kernel
def narrow_reductions(
    s: Partition[i8], c: Partition[i16], m: Partition[u8], x: Tensor[i8], y: Tensor[i16], u: Tensor[u8]
) -> None:
    b = tile.bid(0)
    s.store(tile.sum(x.load((b, 0), (1, 32)), axis=1, keepdims=True))
    c.store(tile.cumsum(y.load((b, 0), (1, 32)), axis=1))
    m.store(tile.max(u.load((b, 0), (1, 32)), axis=1, keepdims=True))


# 7. An f64 cumsum down the columns and an i32 running minimum along the rows.
@tile.kernel
def scans_2d(z: Partition[f64], w: Partition[i32], x: Tensor[f64], k: Tensor[i32]) -> None:
    z.store(tile.cumsum(x.load((0, 0), (8, 8)), axis=0))
    w.store(tile.scan(k.load((0, 0), (8, 8)), axis=1, op="min"))


# 8. Two chained bf16 matmuls: (A @ B) rounded to bf16, then @ C.
@tile.kernel
def chained_bf16(z: Partition[f32], a: Tensor[bf16], b: Tensor[bf16], c: Tensor[bf16]) -> None:
    p = tile.matmul(a.load((0, 0), (16, 32)), b.load((0, 0), (32, 16)), tile.zeros((16, 16), f32))
    z.store(tile.matmul(p.astype(bf16), c.load((0, 0), (16, 16)), tile.zeros((16, 16), f32)))


# 9. f16 matmuls: a (16, 16) one on 8 warps (more warps than work), a (64, 16) @ (16, 32) one on 2 warps.
@tile.kernel(num_warps=8)
def small_on_8(z: Partition[f32], a: Tensor[f16], b: Tensor[f16]) -> None:
    z.store(tile.matmul(a.load((0, 0), (16, 16)), b.load((0, 0), (16, 16)), tile.ones((16, 16), f32)))


@tile.kernel(num_warps=2)
def tall_on_2(z: Partition[f32], a: Tensor[f16], b: Tensor[f16]) -> None:
    z.store(tile.matmul(a.load((0, 0), (64, 16)), b.load((0, 0), (16, 32)), tile.zeros((64, 32), f32)))


# 10. astype chains: f32 -> f16 -> i8 -> u16 -> f64, f64 -> bf16 -> f32 -> i64, i64 -> i8 -> f16 -> u8.
@tile.kernel
def cast_chains(
    z1: Partition[f64], z2: Partition[i64], z3: Partition[u8], x: Tensor[f32], y: Tensor[f64], w: Tensor[i64]
) -> None:
    z1.store(tile.load_like(x, z1).astype(f16).astype(i8).astype(u16).astype(f64))
    z2.store(tile.load_like(y, z2).astype(bf16).astype(f32).astype(i64))
    z3.store(tile.load_like(w, z3).astype(i8).astype(f16).astype(u8))


# 11. Integer `/` (truncating), `//` and `%` (floor) of negatives: i16 by a negative scalar, i16 MIN / -1, i64 by
#     a negative literal, u8 by a literal.
@tile.kernel
def int_division(
    q: Partition[i16], r: Partition[i16], t: Partition[i16], v: Partition[i64], w: Partition[u8],
    x: Tensor[i16], y: Tensor[i64], u: Tensor[u8], d: i16, e: i16,
) -> None:  # fmt: skip
    a = tile.load_like(x, q)
    q.store(a // d)
    r.store(a % d)
    t.store(a / d + tile.load_like(x, t) / e - a)
    b = tile.load_like(y, v)
    v.store((b // -3) * 10 + b % -3 + b / -3 * 1000)
    c = tile.load_like(u, w)
    w.store(c // 7 + c % 7 * 40)


# 12. A gather whose indices fall outside the tensor (they read `other`, no trap) and a masked lane.
@tile.kernel
def gather_edges(z: Partition[i16], table: Tensor[i16]) -> None:
    rows = tile.reshape(tile.iota(8, i32), (8, 1)) * 3 % 11 - 2
    cols = tile.reshape(tile.iota(4, i32), (1, 4)) * 2
    z.store(tile.gather(table, (rows, cols), mask=cols < 6, other=-1))


# 13. Scalar rules: NaN in min/max (Python's order), -0.0 through abs and division, u8 and i16 wrap, shifts past
#     the width, floor division of a negative scalar.
@tile.kernel
def scalar_rules(z: Partition[f32], w: Partition[i32], q: f32, zero: f32, p: u8, h: i16) -> None:
    pick = tile.iota(8, i32)
    vals = tile.zeros((8,), f32)
    vals = vals + tile.where(pick == 0, min(q, 1.0), 0.0)
    vals = vals + tile.where(pick == 1, min(1.0, q), 0.0)
    vals = vals + tile.where(pick == 2, max(q, -2.0, 3.0), 0.0)
    vals = vals + tile.where(pick == 3, 1.0 / abs(zero), 0.0)
    vals = vals + tile.where(pick == 4, 1.0 / zero, 0.0)
    vals = vals + tile.where(pick == 5, max(zero, 0.0) * -1.0, 0.0)
    z.store(vals)
    ints = tile.zeros((8,), i32)
    ints = ints + tile.where(pick == 0, i32(p + 200), 0)
    ints = ints + tile.where(pick == 1, i32(h * h), 0)
    ints = ints + tile.where(pick == 2, i32(-p), 0)
    ints = ints + tile.where(pick == 3, i32(p >> 9), 0)
    ints = ints + tile.where(pick == 4, i32(h >> 20), 0)
    ints = ints + tile.where(pick == 5, i32(h // -7), 0)
    ints = ints + tile.where(pick == 6, i32(h % -7), 0)
    ints = ints + tile.where(pick == 7, i32(abs(h - h - 32768)), 0)
    w.store(ints)


# 14. NaN and -0.0 through maximum/minimum (NaN propagates), a max reduction with NaN, comparisons, NaN cleanup.
@tile.kernel
def nan_tiles(z: Partition[f32], m: Partition[f32], c: Partition[i32], x: Tensor[f32], y: Tensor[f32]) -> None:
    a = tile.load_like(x, z)
    b = tile.load_like(y, z)
    z.store(tile.maximum(a, b) + tile.minimum(a, 0.0) * 2.0)
    m.store(tile.where(a != a, 0.0, a) + tile.max(a, axis=0, keepdims=True))
    c.store((a < b).astype(i32) + (a == b).astype(i32) * 2 + (a != b).astype(i32) * 4 + (a >= b).astype(i32) * 8)


# 15. Math on f64 specials: exp/exp2 of +-inf and overflow, log of 0 and negatives, sqrt/rsqrt of +-0, tanh, sin.
@tile.kernel
def f64_math(e: Partition[f64], lg: Partition[f64], sq: Partition[f64], th: Partition[f64], x: Tensor[f64]) -> None:
    t = tile.load_like(x, e)
    e.store(tile.exp(t) + tile.exp2(t) * 0.5)
    lg.store(tile.log(t))
    sq.store(tile.sqrt(t) - tile.rsqrt(t))
    th.store(tile.tanh(t) + tile.sin(t) * tile.cos(t))


# 16. Atomics with indices outside the tensor (dropped): an f64 sum, a u64 count, an i32 max; padding masked.
@tile.kernel
def atomics_dropped(
    z: Partition[i32], sums: AtomicTensor[f64], counts: AtomicTensor[u64], top: AtomicTensor[i32],
    idx: Tensor[i32], vals: Tensor[f64],
) -> None:  # fmt: skip
    i = tile.load_like(idx, z)
    v = tile.load_like(vals, z)
    valid = tile.iota(16, i32) + tile.bid(0) * 16 < idx.shape[0]
    tile.atomic_add(sums, i, v, mask=valid)
    tile.atomic_add(counts, i, 1, mask=valid)
    tile.atomic_max(top, i % 4, i * 10, mask=valid)
    z.store(i)


# 17. iota and full of narrow and wide dtypes: u8 wrap, u64 max, i8 min minus one, i64 steps of 2**40.
@tile.kernel
def made(a: Partition[u8], b: Partition[u64], c: Partition[i8], d: Partition[i64]) -> None:
    a.store(tile.iota(16, u8) + 250)
    b.store(tile.full((16,), 18446744073709551615, u64) - tile.iota(16, u64))
    c.store(tile.full((16,), -128, i8) - 1 + tile.iota(16, i8))
    d.store(tile.iota(16, i64) * 1099511627776 - 5)


# 18. Bool reductions: a count (i64) and the first True (argmax of the mask as i32: argmax of a bool tile is
#     SK023 on both executors, REFUSALS) per row, from a comparison.
@tile.kernel
def bool_reduce(n: Partition[i64], first: Partition[i32], x: Tensor[f32], limit: f32) -> None:
    hot = x.load((tile.bid(0), 0), (1, 16)) > limit
    n.store(tile.sum(hot, axis=1, keepdims=True))
    first.store(tile.argmax(hot.astype(i32), axis=1, keepdims=True))


@tile.kernel
def bool_argmax(first: Partition[i32], x: Tensor[f32], limit: f32) -> None:
    first.store(tile.argmax(x.load((tile.bid(0), 0), (1, 16)) > limit, axis=1, keepdims=True))


# 19. Wide ragged rows on 2 warps: (3, 1000) in (1, 256) tiles, one partial sum per tile, the padding masked.
@tile.kernel(num_warps=2)
def wide_rows(sums: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((tile.bid(0), tile.bid(1)), (1, 256))
    cols = tile.reshape(tile.iota(256, i32), (1, 256)) + tile.bid(1) * 256 < x.shape[1]
    sums.store(tile.sum(tile.where(cols, t, 0.0), axis=1, keepdims=True))


# 20. @tile.autotune over a 2-D tile (BM rows of 16) and warps: row sums.
BM = 8


@tile.autotune(configs=[tile.Config(BM=8), tile.Config(BM=16, num_warps=2)], key=["x"], warmup=1, rep=1)
@tile.kernel
def tuned_row_sums(out: Annotated[Partition[f32], tile.Dims(BM, 1)], x: Tensor[f32]) -> None:
    out.store(tile.sum(x.load((tile.bid(0), 0), (BM, 16)), axis=1, keepdims=True))


# 21. A graph replayed four times: each replay adds 1 to every element and bumps a counter once per tile block.
@tile.kernel
def bump(z: Partition[i32], hits: AtomicTensor[i32]) -> None:
    z.store(z.load() + 1)
    tile.atomic_add(hits, (0,), 1)


# 22. A `then` chain that repartitions between launches: (16,) tiles, then (32,), then (8,).
@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32], a: f32) -> None:
    z.store(tile.load_like(x, z) * a)


@tile.kernel
def shift_by_block(z: Partition[f32]) -> None:
    z.store(z.load() + f32(tile.bid(0)) * 100.0)


def _graph_program() -> Program:
    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        op = bump(_out((40,), (16,), i32, device), tile.zeros((1,), i32, device=device))
        graph = op.graph_on(stream)
        for _ in range(4):
            graph.replay(stream)
        stream.synchronize()
        z, hits = graph.value
        return [z.to_numpy(stream).reshape(-1)[:40], hits.to_numpy(stream)]

    def assemble(arch: str) -> Any:
        dev = sk.Device.cpu()
        return bump.inspect(_out((40,), (16,), i32, dev), tile.zeros((1,), i32, device=dev), arch=arch)

    return Program(
        "tile3: graph_on replayed four times, an AtomicTensor counter",
        run,
        lambda: [np.full(40, 4, np.int32), np.array([12], np.int32)],
        assemble,
    )


def _then_program(x: np.ndarray) -> Program:
    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        first = scale(_out((64,), (16,), f32, device), _in(x, device), 2.0)

        def second(values: Any) -> Any:
            z, _x, _a = values
            return shift_by_block(z.unpartition().partition((32,)))

        def third(values: Any) -> Any:
            (z,) = values
            return shift_by_block(z.unpartition().partition((8,)))

        (z,) = first.then(second).then(third).sync_on(stream)
        return [z.unpartition().to_numpy(stream)]

    def reference() -> list[np.ndarray]:
        out = x * np.float32(2) + np.repeat(np.arange(2, dtype=np.float32), 32) * np.float32(100)
        return [out + np.repeat(np.arange(8, dtype=np.float32), 8) * np.float32(100)]

    def assemble(arch: str) -> Any:
        dev = sk.Device.cpu()
        return shift_by_block.inspect(_out((64,), (8,), f32, dev), arch=arch)

    return Program("tile3: then chain repartitioning (16,) -> (32,) -> (8,)", run, reference, assemble)


def _autotune_program(x: np.ndarray) -> Program:
    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        out, _x = tuned_row_sums(tile.zeros((40, 1), f32, device=device), _in(x, device)).sync_on(stream)
        return [out.to_numpy(stream)]

    def assemble(arch: str) -> Any:
        dev = sk.Device.cpu()
        return tuned_row_sums.variants[1].inspect(_out((40, 1), (16, 1), f32, dev), _in(x, dev), arch=arch)

    return Program(
        "tile3: autotune over a 2-D tile and warps (row sums)", run, lambda: [x.sum(1, keepdims=True)], assemble
    )


def _round_f16(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.asarray(x).astype(np.float16)


def _sat(v: float, lo: int, hi: int) -> int:
    if math.isnan(v):
        return 0
    return lo if v <= lo else hi if v >= hi else int(v)


def _bf16_of_f64(v: float) -> float:
    """f64 rounded to bf16 directly (nearest even, one rounding), as a float."""
    if math.isnan(v) or math.isinf(v) or v == 0.0:
        return v
    m, e = math.frexp(abs(v))  # abs(v) = m * 2**e, 0.5 <= m < 1
    scaled = m * 2**8  # 8 significant bits
    low = math.floor(scaled)
    rest = scaled - low
    if rest > 0.5 or (rest == 0.5 and low % 2 == 1):
        low += 1
    out = math.ldexp(low, e - 8)
    if out > 3.3895313892515355e38:
        out = math.inf
    return math.copysign(out, v)


def _programs() -> list[Program]:
    rng = np.random.default_rng(2026_12_03)
    progs: list[Program] = []

    # 1
    x1 = (rng.integers(-40, 40, 100) * 0.25).astype(np.float32)

    def means_ref() -> list[np.ndarray]:
        return [
            np.array(
                [np.float32(x1[k : k + 16].sum()) / np.float32(x1[k : k + 16].size) for k in range(0, 100, 16)],
                np.float32,
            )
        ]

    progs.append(
        tile_program(
            "tile3: masked means of a ragged 1-D tensor",
            masked_means,
            lambda d: (_out((7,), (1,), f32, d), _in(x1, d)),
            (0,),
            means_ref,
        )
    )

    # 2
    x2 = rng.integers(-1000, 1000, (37, 20)).astype(np.float32)

    def colmax_ref() -> list[np.ndarray]:
        return [np.stack([x2[r : r + 16].max(axis=0) for r in range(0, 37, 16)])]

    progs.append(
        tile_program(
            "tile3: column maxima of a ragged (37, 20) matrix, padding rows masked",
            column_max,
            lambda d: (_out((3, 20), (1, 8), f32, d), _in(x2, d), -np.inf),
            (0,),
            colmax_ref,
        )
    )

    # 3
    x3 = rng.standard_normal((10, 32)).astype(np.float32)
    g3 = rng.standard_normal((1, 32)).astype(np.float32)
    b3 = rng.standard_normal((1, 32)).astype(np.float32)

    def ln_ref() -> list[np.ndarray]:
        x = x3.astype(np.float64)
        mean = x.mean(1, keepdims=True)
        var = ((x - mean) ** 2).mean(1, keepdims=True)
        return [((x - mean) / np.sqrt(var + 1e-5) * g3 + b3).astype(np.float32)]

    progs.append(
        tile_program(
            "tile3: layer norm over rows (keepdims sums, rsqrt, (1, 32) loads)",
            layer_norm,
            lambda d: (_out((10, 32), (2, 32), f32, d), _in(x3, d), _in(g3, d), _in(b3, d)),
            (0,),
            ln_ref,
            rtol=2e-5,
        )
    )

    # 4
    a4 = rng.integers(-9, 9, (16, 1)).astype(np.float32)
    b4 = rng.integers(-9, 9, (1, 16)).astype(np.float32)
    progs.append(
        tile_program(
            "tile3: outer products by broadcasting (8, 1) and (1, 8) loads",
            outer,
            lambda d: (_out((16, 16), (8, 8), f32, d), _in(a4, d), _in(b4, d)),
            (0,),
            lambda: [a4 * b4 + a4 - b4],
        )
    )

    # 5
    x5 = rng.standard_normal(40).astype(np.float32)
    n5 = rng.integers(-128, 128, 40).astype(np.int8)

    def where_ref() -> list[np.ndarray]:
        w = np.where(n5 < 0, np.int8(-7), np.int8(33)).astype(np.int64) * n5
        return [np.where(x5 > 0, x5, x5 * np.float32(0.01)), np.array([_wrap(int(v), 8, True) for v in w], np.int8)]

    progs.append(
        tile_program(
            "tile3: where with a float literal and with typed i8 scalars, i8 product wraps",
            where_typed,
            lambda d: (_out((40,), (16,), f32, d), _out((40,), (16,), i8, d), _in(x5, d), _in(n5, d), -7, 33),
            (0, 1),
            where_ref,
        )
    )

    # 6
    x6 = rng.integers(60, 128, (4, 32)).astype(np.int8)
    y6 = rng.integers(2000, 3000, (4, 32)).astype(np.int16)
    u6 = rng.integers(0, 256, (4, 32)).astype(np.uint8)

    def narrow_ref() -> list[np.ndarray]:
        s = np.array([[_wrap(int(r.astype(np.int64).sum()), 8, True)] for r in x6], np.int8)
        c = np.array([[_wrap(int(v), 16, True) for v in np.cumsum(r.astype(np.int64))] for r in y6], np.int16)
        return [s, c, u6.max(1, keepdims=True)]

    progs.append(
        tile_program(
            "tile3: reductions keep the dtype: i8 sum and i16 cumsum wrap, u8 max",
            narrow_reductions,
            lambda d: (
                _out((4, 1), (1, 1), i8, d),
                _out((4, 32), (1, 32), i16, d),
                _out((4, 1), (1, 1), u8, d),
                _in(x6, d),
                _in(y6, d),
                _in(u6, d),
            ),
            (0, 1, 2),
            narrow_ref,
        )
    )

    # 7
    x7 = rng.integers(-50, 50, (8, 8)).astype(np.float64) * 0.5
    k7 = rng.integers(-1000, 1000, (8, 8)).astype(np.int32)
    progs.append(
        tile_program(
            "tile3: f64 cumsum along axis 0, i32 min-scan along axis 1",
            scans_2d,
            lambda d: (_out((8, 8), (8, 8), f64, d), _out((8, 8), (8, 8), i32, d), _in(x7, d), _in(k7, d)),
            (0, 1),
            lambda: [np.cumsum(x7, 0), np.minimum.accumulate(k7, 1)],
        )
    )

    # 8
    a8 = rng.integers(-3, 4, (16, 32)).astype(np.float32)
    b8 = rng.integers(-3, 4, (32, 16)).astype(np.float32)
    c8 = rng.integers(-2, 3, (16, 16)).astype(np.float32)
    progs.append(
        tile_program(
            "tile3: chained bf16 matmuls, the product rounded to bf16 between",
            chained_bf16,
            lambda d: (_out((16, 16), (16, 16), f32, d), _in(a8, d, bf16), _in(b8, d, bf16), _in(c8, d, bf16)),
            (0,),
            lambda: [round_bf16(a8 @ b8) @ c8],
        )
    )

    # 9
    a9 = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    b9 = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    progs.append(
        tile_program(
            "tile3: a (16, 16) f16 matmul on 8 warps",
            small_on_8,
            lambda d: (_out((16, 16), (16, 16), f32, d), _in(a9, d), _in(b9, d)),
            (0,),
            lambda: [a9.astype(np.float32) @ b9.astype(np.float32) + 1],
        )
    )
    a9b = rng.integers(-4, 5, (64, 16)).astype(np.float16)
    b9b = rng.integers(-4, 5, (16, 32)).astype(np.float16)
    progs.append(
        tile_program(
            "tile3: a (64, 16) @ (16, 32) f16 matmul on 2 warps",
            tall_on_2,
            lambda d: (_out((64, 32), (64, 32), f32, d), _in(a9b, d), _in(b9b, d)),
            (0,),
            lambda: [a9b.astype(np.float32) @ b9b.astype(np.float32)],
        )
    )

    # 10
    x10 = np.array(
        [1.5, -1.5, 127.9, 128.5, -129.0, 300.0, 70000.0, -70000.0, np.nan, np.inf, -np.inf, 0.99, -0.99, 65519.0,
         -2.7, 200.0] * 2,
        np.float32,
    )  # fmt: skip
    y10 = np.array(
        [1 + 2.0**-8 + 2.0**-30, 1 + 2.0**-8, 1 + 3 * 2.0**-8, -(1 + 2.0**-8 + 2.0**-40), 3.4e38, 3.5e38, 1e300,
         -1e300, np.nan, 1e19, -1e19, 2.0**63, 255.99, -0.75, 123456.789, 1e-40] * 2,
        np.float64,
    )  # fmt: skip
    w10 = np.array(
        [255, 256, -129, 127, 2**40 + 200, -(2**40) - 3, 1000, -1000, 0, -1, 65, 129, 2**63 - 1, -(2**63), 77, -77] * 2,
        np.int64,
    )

    def chains_ref() -> list[np.ndarray]:
        r1 = []
        for v in _round_f16(x10).astype(np.float64).tolist():
            r1.append(float(_wrap(_sat(v, -128, 127), 16, False)))
        r2 = []
        for v in y10.tolist():
            r2.append(_sat(_bf16_of_f64(v), -(2**63), 2**63 - 1))
        r3 = []
        for v in w10.tolist():
            r3.append(_sat(float(np.float16(_wrap(v, 8, True))), 0, 255))
        return [np.array(r1, np.float64), np.array(r2, np.int64), np.array(r3, np.uint8)]

    progs.append(
        tile_program(
            "tile3: astype chains (f32->f16->i8->u16->f64, f64->bf16->f32->i64, i64->i8->f16->u8)",
            cast_chains,
            lambda d: (
                _out((32,), (16,), f64, d),
                _out((32,), (16,), i64, d),
                _out((32,), (16,), u8, d),
                _in(x10, d),
                _in(y10, d),
                _in(w10, d),
            ),
            (0, 1, 2),
            chains_ref,
        )
    )

    # 11
    x11 = np.array([-32768, -32767, -100, -7, -6, -1, 0, 1, 6, 7, 100, 32767, -15, 15, -22, 22], np.int16)
    y11 = np.array([-(2**62), -10, -9, -8, -3, -2, -1, 0, 1, 2, 3, 8, 9, 10, 2**62, 7], np.int64)
    u11 = np.array([0, 1, 6, 7, 8, 13, 14, 100, 200, 255, 254, 49, 50, 51, 97, 98], np.uint8)

    def trunc_div(a: int, b: int) -> int:
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b > 0) else -q

    def div_ref() -> list[np.ndarray]:
        a = [int(v) for v in x11]
        q = [_wrap(v // -7, 16, True) for v in a]
        r = [_wrap(v % -7, 16, True) for v in a]
        t = [_wrap(trunc_div(v, -7) + _wrap(trunc_div(v, -1), 16, True) - v, 16, True) for v in a]
        b = [int(v) for v in y11]
        vv = [_wrap((v // -3) * 10 + v % -3 + trunc_div(v, -3) * 1000, 64, True) for v in b]
        w = [(int(v) // 7 + (int(v) % 7) * 40) % 256 for v in u11]
        return [
            np.array(q, np.int16), np.array(r, np.int16), np.array(t, np.int16), np.array(vv, np.int64),
            np.array(w, np.uint8),
        ]  # fmt: skip

    progs.append(
        tile_program(
            "tile3: integer / // % of negatives (i16 by a scalar, MIN / -1, i64 by a literal, u8)",
            int_division,
            lambda d: (
                _out((16,), (16,), i16, d),
                _out((16,), (16,), i16, d),
                _out((16,), (16,), i16, d),
                _out((16,), (16,), i64, d),
                _out((16,), (16,), u8, d),
                _in(x11, d),
                _in(y11, d),
                _in(u11, d),
                -7,
                -1,
            ),
            (0, 1, 2, 3, 4),
            div_ref,
        )
    )

    # 12
    t12 = rng.integers(-500, 500, (7, 6)).astype(np.int16)

    def gather_ref() -> list[np.ndarray]:
        rows = (np.arange(8) * 3 % 11 - 2)[:, None]
        cols = (np.arange(4) * 2)[None, :]
        out = np.full((8, 4), -1, np.int16)
        for i in range(8):
            for j in range(4):
                r, c = int(rows[i, 0]), int(cols[0, j])
                if c < 6 and 0 <= r < 7 and 0 <= c < 6:
                    out[i, j] = t12[r, c]
        return [out]

    progs.append(
        tile_program(
            "tile3: a 2-D i16 gather with indices off the tensor and a mask (they read other)",
            gather_edges,
            lambda d: (_out((8, 4), (8, 4), i16, d), _in(t12, d)),
            (0,),
            gather_ref,
        )
    )

    # 13
    def scalar_ref() -> list[np.ndarray]:
        q, p, h = math.nan, 100, -300
        f = np.zeros(8, np.float32)
        f[0] = np.nan  # min(nan, 1.0): the NaN comes first
        f[1] = 1.0  # min(1.0, nan)
        f[2] = _py_max(q, -2.0, 3.0)  # a later argument wins only when strictly larger: NaN stays
        f[3] = np.inf  # 1 / abs(-0.0)
        f[4] = -np.inf  # 1 / -0.0
        f[5] = _py_max(-0.0, 0.0) * -1.0  # the first of equals (-0.0), times -1.0
        ints = [
            _wrap(p + 200, 8, False), _wrap(h * h, 16, True), _wrap(-p, 8, False), 0, -1,
            _wrap(h // -7, 16, True), _wrap(h % -7, 16, True), _wrap(abs(_wrap(-32768, 16, True)), 16, True),
        ]  # fmt: skip
        return [f, np.array(ints, np.int32)]

    progs.append(
        tile_program(
            "tile3: scalar rules: NaN in min/max, -0.0 through abs and division, u8/i16 wrap, shifts past the width",
            scalar_rules,
            lambda d: (_out((8,), (8,), f32, d), _out((8,), (8,), i32, d), math.nan, -0.0, 100, -300),
            (0, 1),
            scalar_ref,
        )
    )

    # 14
    x14 = np.array(
        [np.nan, 1.0, -0.0, 0.0, -np.inf, 3.0, np.nan, -2.0, 5.0, -0.0, 7.0, np.inf, 0.5, -1.5, 2.0, 9.0], np.float32
    )
    y14 = np.array(
        [1.0, np.nan, 0.0, -0.0, 2.0, np.nan, np.nan, -3.0, 5.0, -0.0, -7.0, np.inf, 0.25, 1.5, np.nan, 8.0], np.float32
    )

    def nan_ref() -> list[np.ndarray]:
        z = np.maximum(x14, y14) + np.minimum(x14, np.float32(0)) * np.float32(2)
        m = np.where(np.isnan(x14), np.float32(0), x14) + np.max(x14)
        with np.errstate(invalid="ignore"):
            c = (x14 < y14).astype(np.int32) + (x14 == y14) * 2 + (x14 != y14) * 4 + (x14 >= y14) * 8
        return [z, m, c.astype(np.int32)]

    progs.append(
        tile_program(
            "tile3: NaN and -0.0 through maximum/minimum, a max reduction, comparisons, NaN cleanup",
            nan_tiles,
            lambda d: (
                _out((16,), (16,), f32, d),
                _out((16,), (16,), f32, d),
                _out((16,), (16,), i32, d),
                _in(x14, d),
                _in(y14, d),
            ),
            (0, 1, 2),
            nan_ref,
        )
    )

    # 15
    x15 = np.array(
        [-np.inf, np.inf, 0.0, -0.0, -1.0, 1100.0, -1100.0, 700.0, np.nan, 1e-310, 2.5, -2.5, 1e300, -1e-300, 30.0,
         -30.0],
        np.float64,
    )  # fmt: skip

    def f64_ref() -> list[np.ndarray]:
        x = x15
        with np.errstate(all="ignore"):
            return [
                np.exp(x) + np.exp2(x) * 0.5,
                np.log(x),
                np.sqrt(x) - 1 / np.sqrt(x),
                np.tanh(x) + np.sin(x) * np.cos(x),
            ]

    progs.append(
        tile_program(
            "tile3: exp/exp2/log/sqrt/rsqrt/tanh/sin/cos of f64 specials",
            f64_math,
            lambda d: (
                _out((16,), (16,), f64, d),
                _out((16,), (16,), f64, d),
                _out((16,), (16,), f64, d),
                _out((16,), (16,), f64, d),
                _in(x15, d),
            ),
            (0, 1, 2, 3),
            f64_ref,
            rtol=1e-14,
        )
    )

    # 16
    idx16 = np.array(
        [
            0,
            1,
            -1,
            4,
            5,
            99,
            2,
            3,
            0,
            0,
            4,
            -7,
            1,
            2,
            3,
            4,
            1,
            1,
            2,
            6,
            0,
            3,
            4,
            4,
            2,
            2,
            -1,
            0,
            1,
            3,
            3,
            3,
            4,
            8,
            2,
            0,
            1,
            1,
        ],
        np.int32,
    )
    v16 = (rng.integers(-40, 40, idx16.size) * 0.25).astype(np.float64)

    def atomics_ref() -> list[np.ndarray]:
        sums, counts, top = np.zeros(5, np.float64), np.zeros(5, np.uint64), np.zeros(5, np.int32)
        for i, v in zip(idx16.tolist(), v16.tolist(), strict=True):
            if 0 <= i < 5:
                sums[i] += v
                counts[i] += 1
            t = i % 4
            top[t] = max(top[t], i * 10)
        return [idx16, sums, counts, top]

    progs.append(
        tile_program(
            "tile3: f64/u64/i32 atomics with indices off the tensor dropped, padding masked",
            atomics_dropped,
            lambda d: (
                _out((idx16.size,), (16,), i32, d),
                tile.zeros((5,), f64, device=d),
                tile.zeros((5,), u64, device=d),
                tile.zeros((5,), i32, device=d),
                _in(idx16, d),
                _in(v16, d),
            ),
            (0, 1, 2, 3),
            atomics_ref,
        )
    )

    # 17
    def made_ref() -> list[np.ndarray]:
        k = np.arange(16)
        return [
            ((k + 250) % 256).astype(np.uint8),
            np.array([2**64 - 1 - int(v) for v in k], np.uint64),
            np.array([_wrap(-128 - 1 + int(v), 8, True) for v in k], np.int8),
            k.astype(np.int64) * 2**40 - 5,
        ]

    progs.append(
        tile_program(
            "tile3: iota and full of u8, u64 (its maximum), i8 (its minimum - 1) and i64",
            made,
            lambda d: (
                _out((16,), (16,), u8, d),
                _out((16,), (16,), u64, d),
                _out((16,), (16,), i8, d),
                _out((16,), (16,), i64, d),
            ),
            (0, 1, 2, 3),
            made_ref,
        )
    )

    # 18
    x18 = rng.standard_normal((5, 16)).astype(np.float32)
    x18[3] = -5.0  # a row with no True: argmax is 0

    def bool_ref() -> list[np.ndarray]:
        hot = x18 > np.float32(0.5)
        return [hot.sum(1, keepdims=True).astype(np.int64), hot.argmax(1)[:, None].astype(np.int32)]

    progs.append(
        tile_program(
            "tile3: bool reductions: count (i64) and first True (argmax) per row",
            bool_reduce,
            lambda d: (_out((5, 1), (1, 1), i64, d), _out((5, 1), (1, 1), i32, d), _in(x18, d), 0.5),
            (0, 1),
            bool_ref,
        )
    )

    # 19
    x19 = rng.integers(-8, 8, (3, 1000)).astype(np.float32)

    def wide_ref() -> list[np.ndarray]:
        return [
            np.stack([[x19[r, c : c + 256].sum() for c in range(0, 1000, 256)] for r in range(3)]).astype(np.float32)
        ]

    progs.append(
        tile_program(
            "tile3: wide ragged rows (3, 1000) in (1, 256) tiles on 2 warps",
            wide_rows,
            lambda d: (_out((3, 4), (1, 1), f32, d), _in(x19, d)),
            (0,),
            wide_ref,
        )
    )

    # 20-22: autotune, graph replay, then chain
    progs.append(_autotune_program(rng.integers(-9, 9, (40, 16)).astype(np.float32)))
    progs.append(_graph_program())
    progs.append(_then_program(rng.standard_normal(64).astype(np.float32)))
    return progs


def _py_max(*args: float) -> float:
    best = args[0]
    for v in args[1:]:
        if v > best:
            best = v
    return best


PROGRAMS = _programs()


# Out-of-range tile indices (not programs: a trap ends the GPU's context): each load form traps on the CPU
# executor and has a trap in its PTX (test_fresh3_programs.py).
@tile.kernel
def load_at(z: Partition[f32], x: Tensor[f32], k: i32) -> None:
    z.store(x.load((k,), (16,)))


@tile.kernel
def partition_load_at(z: Partition[f32], x: Tensor[f32], k: i32) -> None:
    z.store(x.partition((16,)).load((tile.bid(0) + k,)))


@tile.kernel
def load_2d_at(z: Partition[f32], x: Tensor[f32], k: i32) -> None:
    z.store(x.load((tile.bid(0), k), (4, 4)))


TRAPS: dict[str, tuple[Any, tuple[int, ...], int]] = {
    "x.load past the last tile": (load_at, (40,), 3),
    "x.load at -1": (load_at, (40,), -1),
    "x.partition(...).load past the last tile": (partition_load_at, (40,), 1),
    "2-D x.load past the last column tile": (load_2d_at, (8, 10), 3),
}


def trap_args(name: str, device: sk.Device) -> tuple[Any, ...]:
    _kernel, shape, k = TRAPS[name]
    tile_shape = (16,) if len(shape) == 1 else (4, 4)
    return (_out(shape, tile_shape, f32, device), _in(np.ones(shape, np.float32), device), k)


def _tile_refusal(name: str, kernel: Any, make_args: Any, code: str, line_text: str) -> Refusal:
    def run(device: sk.Device) -> list[np.ndarray]:
        kernel(*make_args(device)).sync_on(device.new_stream())
        return []

    def assemble(arch: str) -> Any:
        return kernel.inspect(*make_args(sk.Device.cpu()), arch=arch)

    return Refusal(name, run, assemble, code, line_text)


REFUSALS = [
    _tile_refusal(
        "tile3: argmax of a bool tile",
        bool_argmax,
        lambda d: (_out((5, 1), (1, 1), i32, d), _in(np.ones((5, 16), np.float32), d), 0.5),
        "SK023",
        "tile.argmax(x.load(",
    ),
]
