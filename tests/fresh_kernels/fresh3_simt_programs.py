# mypy: disable-error-code="no-any-return"
"""Third batch of fresh SIMT programs, written from docs/simt.md, docs/simt-compiler.md and docs/numerics.md as a
new user would, in forms the first two batches did not use: chained comparisons mixing typed ints and floats (a
middle operand with a side effect), 2-D and 3-D grids with partial blocks on every axis, a grid-stride `while`
with an inner `while True` / `break`, 64-bit hashing and PRNGs that wrap (u64, u32), shifts by counts past the
width on u8/i16/u64/i64, float specials (inf, nan, -0.0) through `min`/`max`/`abs`/comparisons/`math.*`, casts
at the edges of every integer type, an f16 shared array that rounds each store, helpers with several `return`s,
a halo stencil through shared memory, atomics on every documented dtype, mixed-width `//` and `%`, reverse
loops with `break`/`continue`, warp max/min over NaN in a partial warp, short-circuit `or` with a side effect.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from fresh_program import Program, Refusal

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import bf16, f16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread, warp

Config = simt.LaunchConfig1D | simt.LaunchConfig2D | simt.LaunchConfig3D
#: program name -> (kernel, config, make_args, outputs): the launch, for runners other than `Program.run`
LAUNCHES: dict[str, tuple[Any, Config, Callable[[Any], tuple[Any, ...]], tuple[int, ...]]] = {}


def launch_program(
    name: str,
    kernel: Any,
    config: Config,
    make_args: Callable[[Any], tuple[Any, ...]],
    outputs: tuple[int, ...],
    reference: Callable[[], list[np.ndarray]],
    rtol: float = 0.0,
) -> Program:
    """A SIMT launch of `config`; the buffers at `outputs` are compared."""
    LAUNCHES[name] = (kernel, config, make_args, outputs)

    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        args = make_args(stream)
        kernel.launch(kernel.prepare(config, device), stream, *args)
        return [args[i].to_numpy(stream) for i in outputs]

    def assemble(arch: str) -> Any:
        from safekernels.codegen.pipeline import compile_simt_kernel

        return compile_simt_kernel(kernel, arch="sm_90" if arch == "sm_90a" else arch, use_cache=False)

    return Program(name, run, reference, assemble, rtol)


def _dev(stream: Any, a: np.ndarray, dtype: Any = None) -> Any:
    return sk.to_device(a, stream) if dtype is None else sk.to_device(a, stream, dtype=dtype)


def _wrap(value: int, bits: int, signed: bool) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if signed and value >= 1 << (bits - 1) else value


# 1. Range checks as chained comparisons: an i32 and an i64 between f32 bounds (the int converts to f32 in each
#    pair: numerics.md), and an atomic as a chain's middle operand (evaluated once per thread).
@simt.kernel
@simt.launch_contract(block=64)
def in_range(a: Slice[i32], b: Slice[i64], lo: f32, hi: f32, calls: AtomicSlice[u32], c: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        flags = i32(lo <= a[i] < hi) + 2 * i32(lo < b[i] <= hi) + 4 * i32(a[i] < hi != b[i])  # type: ignore[comparison-overlap]  # typed ints and floats compare (in f32)
        if 0 <= calls.fetch_add(0, u32(1)) < 1000000:
            flags += 8
        o.set(flags)


def _in_range() -> Program:
    base = 16777216
    a = (base - 3 + np.arange(40) % 8).astype(np.int32)
    b = (base - 2 + (np.arange(40) * 3) % 7).astype(np.int64)
    lo, hi = np.float32(base), np.float32(base + 2)

    def reference() -> list[np.ndarray]:
        af, bf = a.astype(np.float32), b.astype(np.float32)
        flags = (lo <= af) & (af < hi)
        flags2 = (lo < bf) & (bf <= hi)
        flags4 = (af < hi) & (hi != bf)
        return [flags.astype(np.int32) + 2 * flags2 + 4 * flags4 + 8, np.array([40], np.uint32)]

    return launch_program(
        "simt3: chained comparisons of i32/i64 with f32 bounds, an atomic as the middle operand",
        in_range,
        simt.LaunchConfig1D.for_len(40, block=64),
        lambda s: (_dev(s, a), _dev(s, b), lo, hi, sk.zeros(1, u32, s), sk.zeros(40, i32, s)),
        (5, 4),
        reference,
    )


# 2. A 2-D launch from `for_shape` over a (37, 23) matrix in (8, 8) blocks: partial blocks on both axes, i16
#    products that wrap.
ROWS2, COLS2 = 37, 23


@simt.kernel
@simt.launch_contract(block=(8, 8))
def weigh_2d(a: Slice[i16], out: DisjointSlice[i16], rows: u32) -> None:
    r = thread.block_idx_y() * thread.block_dim_y() + thread.thread_idx_y()
    c = thread.block_idx_x() * thread.block_dim_x() + thread.thread_idx_x()
    idx = thread.index_2d(COLS2)
    if idx is None or r >= rows:
        return
    k = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[k] * i16((r * 31 + c * 17) % 97 - 48))


def _weigh_2d() -> Program:
    a = ((np.arange(ROWS2 * COLS2) * 1237) % 6001 - 3000).astype(np.int16)

    def reference() -> list[np.ndarray]:
        r, c = np.divmod(np.arange(ROWS2 * COLS2), COLS2)
        w = ((r * 31 + c * 17) % 97 - 48).astype(np.int16)
        return [(a.astype(np.int64) * w).astype(np.int16)]

    return launch_program(
        "simt3: 2-D for_shape launch with partial blocks on both axes, i16 products wrap",
        weigh_2d,
        simt.LaunchConfig2D.for_shape(ROWS2, COLS2, block=(8, 8)),
        lambda s: (_dev(s, a), sk.zeros(ROWS2 * COLS2, i16, s), ROWS2),
        (1,),
        reference,
    )


# 3. A 3-D grid (2, 3, 2) of (4, 3, 3) blocks over a (7, 8, 5) volume (x, y, z): partial on every axis; u8 wraps.
VX, VY, VZ = 7, 8, 5


@simt.kernel
@simt.launch_contract(block=(4, 3, 3))
def label_3d(out: DisjointSlice[u8]) -> None:
    x = thread.block_idx_x() * thread.block_dim_x() + thread.thread_idx_x()
    y = thread.block_idx_y() * thread.block_dim_y() + thread.thread_idx_y()
    z = thread.block_idx_z() * thread.block_dim_z() + thread.thread_idx_z()
    if x < VX and y < VY and z < VZ:
        with simt.unsafe():
            out.get_unchecked_mut((z * VY + y) * VX + x).set(u8(x + 10 * y + 50 * z + thread.grid_dim_z()))


def _label_3d() -> Program:
    def reference() -> list[np.ndarray]:
        z, y, x = np.meshgrid(np.arange(VZ), np.arange(VY), np.arange(VX), indexing="ij")
        return [((x + 10 * y + 50 * z + 2) % 256).astype(np.uint8).reshape(-1)]

    return launch_program(
        "simt3: 3-D grid with partial blocks on every axis, u8 wrap",
        label_3d,
        simt.LaunchConfig3D(grid=(2, 3, 2), block=(4, 3, 3)),
        lambda s: (sk.zeros(VX * VY * VZ, u8, s),),
        (0,),
        reference,
    )


# 4. Collatz step counts: a grid-stride `while` loop, an inner `while True` with `break` at 1 or at a cap; u64.
@simt.kernel
@simt.launch_contract(block=32)
def collatz(start: Slice[u64], steps: DisjointSlice[i32], cap: i32) -> None:
    i = thread.block_idx_x() * thread.block_dim_x() + thread.thread_idx_x()
    stride = thread.grid_dim_x() * thread.block_dim_x()
    while i < len(start):
        v = start[i]
        n = i32(0)
        while True:
            if v == 1 or n >= cap:
                break
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            n += 1
        with simt.unsafe():
            steps.get_unchecked_mut(i).set(n)
        i += stride


def _collatz() -> Program:
    start = (np.arange(1, 201) * 7919 % 100003 + 1).astype(np.uint64)
    start[5] = 27
    start[6] = 1

    def reference() -> list[np.ndarray]:
        out = []
        for v in start.tolist():
            n = 0
            while v != 1 and n < 120:
                v = v // 2 if v % 2 == 0 else 3 * v + 1
                n += 1
            out.append(n)
        return [np.array(out, np.int32)]

    return launch_program(
        "simt3: grid-stride while loop with an inner while True / break (Collatz, u64)",
        collatz,
        simt.LaunchConfig1D(grid=2, block=32),
        lambda s: (_dev(s, start), sk.zeros(200, i32, s), 120),
        (1,),
        reference,
    )


# 5. FNV-1a 64-bit over rows of bytes: u64 xor and a multiply that wraps, the basis a u64 parameter.
FNV_PRIME = 1099511628211
FNV_BASIS = 14695981039346656037


@simt.kernel
@simt.launch_contract(block=32)
def fnv1a(data: Slice[u8], width: u32, basis: u64, out: DisjointSlice[u64]) -> None:
    idx = thread.index_1d()
    row = idx.get()
    if row >= len(out):
        return
    h = basis
    for k in range(width):
        h = (h ^ u64(data[row * width + k])) * FNV_PRIME
    if (o := out.get_mut(idx)) is not None:
        o.set(h)


def _fnv1a() -> Program:
    rows, width = 45, 13
    data = ((np.arange(rows * width) * 37 + 11) % 256).astype(np.uint8)

    def reference() -> list[np.ndarray]:
        out = []
        for r in range(rows):
            h = FNV_BASIS
            for b in data[r * width : (r + 1) * width].tolist():
                h = ((h ^ b) * FNV_PRIME) % 2**64
            out.append(h)
        return [np.array(out, np.uint64)]

    return launch_program(
        "simt3: FNV-1a 64-bit hash, u64 multiply wraps",
        fnv1a,
        simt.LaunchConfig1D.for_len(rows, block=32),
        lambda s: (_dev(s, data), width, FNV_BASIS, sk.zeros(rows, u64, s)),
        (3,),
        reference,
    )


# 6. PRNGs: xorshift32 (u32 shifts and xors) and xorshift64* (a multiplier above 2**63, passed as a u64 scalar).
XS64_MUL = 0x2545F4914F6CDD1D


@simt.kernel
@simt.launch_contract(block=64)
def xorshift(
    seed32: Slice[u32], seed64: Slice[u64], mul: u64, o32: DisjointSlice[u32], o64: DisjointSlice[u64]
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = seed32[i]
    y = seed64[i]
    for _ in range(5):
        x ^= x << 13
        x ^= x >> 17
        x ^= x << 5
        y ^= y >> 12
        y ^= y << 25
        y ^= y >> 27
    if (o := o32.get_mut(idx)) is not None:
        o.set(x)
    with simt.unsafe():
        o64.get_unchecked_mut(i).set(y * mul)


def _xorshift() -> Program:
    n = 64
    s32 = (np.arange(1, n + 1, dtype=np.uint64) * 2654435761 % 2**32).astype(np.uint32)
    s64 = np.array([(k * 0x9E3779B97F4A7C15 + 1) % 2**64 for k in range(n)], np.uint64)

    def reference() -> list[np.ndarray]:
        m32, m64 = 2**32 - 1, 2**64 - 1
        r32, r64 = [], []
        for x, y in zip(s32.tolist(), s64.tolist(), strict=True):
            for _ in range(5):
                x ^= (x << 13) & m32
                x ^= x >> 17
                x ^= (x << 5) & m32
                y ^= y >> 12
                y ^= (y << 25) & m64
                y ^= y >> 27
            r32.append(x)
            r64.append((y * XS64_MUL) & m64)
        return [np.array(r32, np.uint32), np.array(r64, np.uint64)]

    return launch_program(
        "simt3: xorshift32 and xorshift64* (u32/u64 shifts, a u64 multiplier above 2**63)",
        xorshift,
        simt.LaunchConfig1D.for_len(n, block=64),
        lambda s: (_dev(s, s32), _dev(s, s64), XS64_MUL, sk.zeros(n, u32, s), sk.zeros(n, u64, s)),
        (3, 4),
        reference,
    )


# 7. Shifts by run-time counts up to and past the width: u8 <<, i16 >> (sign fill), u64 <<, i64 >>.
@simt.kernel
@simt.launch_contract(block=32)
def big_shifts(
    x8: Slice[u8], x16: Slice[i16], x64: Slice[u64], s64: Slice[i64], n: Slice[u8],
    o8: DisjointSlice[u8], o16: DisjointSlice[i16], o64: DisjointSlice[u64], oi64: DisjointSlice[i64],
) -> None:  # fmt: skip
    i = thread.index_1d().get()
    if i >= len(n):
        return
    with simt.unsafe():
        o8.get_unchecked_mut(i).set(x8[i] << n[i])
        o16.get_unchecked_mut(i).set(x16[i] >> i16(n[i]))
        o64.get_unchecked_mut(i).set(x64[i] << u64(n[i]))
        oi64.get_unchecked_mut(i).set(s64[i] >> i64(n[i]))


def _big_shifts() -> Program:
    counts = np.array([0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 200], np.uint8)
    k = counts.size
    x8 = ((np.arange(k) * 53 + 3) % 256).astype(np.uint8)
    x16 = np.array([(-1) ** j * (1234 + 977 * j) for j in range(k)], np.int16)
    x64 = np.array([(0xF0F0F0F0F0F0F0F1 * (j + 1)) % 2**64 for j in range(k)], np.uint64)
    s64 = np.array([(-1) ** j * (2**62 + 12345 * j) for j in range(k)], np.int64)

    def shl(v: int, s: int, bits: int) -> int:
        return 0 if s >= bits else (v << s) % 2**bits

    def sar(v: int, s: int, bits: int) -> int:
        return (-1 if v < 0 else 0) if s >= bits else v >> s

    def reference() -> list[np.ndarray]:
        c = counts.tolist()
        return [
            np.array([shl(v, s, 8) for v, s in zip(x8.tolist(), c, strict=True)], np.uint8),
            np.array([sar(v, s, 16) for v, s in zip(x16.tolist(), c, strict=True)], np.int16),
            np.array([shl(v, s, 64) for v, s in zip(x64.tolist(), c, strict=True)], np.uint64),
            np.array([sar(v, s, 64) for v, s in zip(s64.tolist(), c, strict=True)], np.int64),
        ]

    return launch_program(
        "simt3: shifts by run-time counts past the width (u8, i16, u64, i64)",
        big_shifts,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (
            _dev(s, x8),
            _dev(s, x16),
            _dev(s, x64),
            _dev(s, s64),
            _dev(s, counts),
            sk.zeros(32, u8, s),
            sk.zeros(32, i16, s),
            sk.zeros(32, u64, s),
            sk.zeros(32, i64, s),
        ),
        (5, 6, 7, 8),
        lambda: [np.concatenate([r, np.zeros(32 - k, r.dtype)]) for r in reference()],
    )


# 8. Float specials through min/max/abs and comparisons, f32 and f64; the sign of a zero shown by copysign.
@simt.kernel
@simt.launch_contract(block=32)
def specials(
    x: Slice[f32], y: Slice[f64], lo: DisjointSlice[f32], hi: DisjointSlice[f64], mag: DisjointSlice[f32],
    sign: DisjointSlice[f32], cmp: DisjointSlice[i32],
) -> None:  # fmt: skip
    i = thread.index_1d().get()
    if i >= len(x):
        return
    a = x[i]
    b = y[i]
    m = min(a, f32(b))
    with simt.unsafe():
        lo.get_unchecked_mut(i).set(m)
        hi.get_unchecked_mut(i).set(max(f64(a), b, 0.0))
        mag.get_unchecked_mut(i).set(abs(a))
        sign.get_unchecked_mut(i).set(math.copysign(f32(1.0), m))
        flags = i32(a < b) + 2 * i32(a == b) + 4 * i32(a != b) + 8 * i32(a != a) + 16 * i32(-math.inf < a < math.inf)  # type: ignore[comparison-overlap]
        cmp.get_unchecked_mut(i).set(flags + 32 * i32(b >= a))


SPECIAL_X = np.array([np.nan, 1.0, np.inf, -np.inf, -0.0, 0.0, -0.0, 3.0, np.nan, -1.0, 3.4e38, 1e-45], np.float32)
SPECIAL_Y = np.array([1.0, np.nan, np.inf, 5.0, 0.0, -0.0, -0.0, np.nan, np.nan, -np.inf, np.inf, 0.0], np.float64)


def _py_min(a: float, b: float) -> float:
    return b if b < a else a


def _py_max(*args: float) -> float:
    best = args[0]
    for v in args[1:]:
        if v > best:
            best = v
    return best


def _specials() -> Program:
    n = SPECIAL_X.size

    def reference() -> list[np.ndarray]:
        xs = [float(v) for v in SPECIAL_X]
        ys = [float(v) for v in SPECIAL_Y]
        lo = [_py_min(a, float(np.float32(b))) for a, b in zip(xs, ys, strict=True)]
        hi = [_py_max(a, b, 0.0) for a, b in zip(xs, ys, strict=True)]
        flags = [
            int(a < b) + 2 * int(a == b) + 4 * int(a != b) + 8 * int(a != a) + 16 * int(-math.inf < a < math.inf)
            + 32 * int(b >= a)
            for a, b in zip(xs, ys, strict=True)
        ]  # fmt: skip
        return [
            np.array(lo, np.float32),
            np.array(hi, np.float64),
            np.abs(SPECIAL_X),
            np.array([math.copysign(1.0, v) for v in lo], np.float32),
            np.array(flags, np.int32),
        ]

    return launch_program(
        "simt3: inf/nan/-0.0 through min, max, abs, copysign and comparisons (f32, f64)",
        specials,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (
            _dev(s, SPECIAL_X),
            _dev(s, SPECIAL_Y),
            sk.zeros(n, f32, s),
            sk.zeros(n, f64, s),
            sk.zeros(n, f32, s),
            sk.zeros(n, f32, s),
            sk.zeros(n, i32, s),
        ),
        (2, 3, 4, 5, 6),
        reference,
    )


# 9. Casts at the edges: f32 -> every int type (truncate, saturate, NaN -> 0); i64 -> narrower ints (wrap);
#    i64 -> f16 (round, overflow to inf) and u64 -> f32.
@simt.kernel
@simt.launch_contract(block=32)
def edge_casts(
    x: Slice[f32], w: Slice[i64], big: Slice[u64], to8: DisjointSlice[u8], toi8: DisjointSlice[i8],
    to16: DisjointSlice[u16], to32: DisjointSlice[i32], tou32: DisjointSlice[u32], to64: DisjointSlice[i64],
    tou64: DisjointSlice[u64], narrow: DisjointSlice[i32], half: DisjointSlice[f16], wide: DisjointSlice[f32],
) -> None:  # fmt: skip
    i = thread.index_1d().get()
    if i >= len(x):
        return
    v = x[i]
    with simt.unsafe():
        to8.get_unchecked_mut(i).set(u8(v))
        toi8.get_unchecked_mut(i).set(i8(v))
        to16.get_unchecked_mut(i).set(u16(v))
        to32.get_unchecked_mut(i).set(i32(v))
        tou32.get_unchecked_mut(i).set(u32(v))
        to64.get_unchecked_mut(i).set(i64(v))
        tou64.get_unchecked_mut(i).set(u64(v))
        narrow.get_unchecked_mut(i).set(i32(i8(w[i])) + i32(u16(w[i])) * 1000 + i32(u32(w[i]) % 7))
        half.get_unchecked_mut(i).set(f16(w[i]))
        wide.get_unchecked_mut(i).set(f32(big[i]))


EDGE_X = np.array(
    [255.5, 256.0, -1.0, -0.5, np.nan, np.inf, -np.inf, 1e10, 2147483520.0, -2147483648.0, 4294967040.0,
     65535.9, -129.7, 127.99, 3e38, -3e38],
    np.float32,
)  # fmt: skip
EDGE_W = np.array(
    [-1, 255, 256, -129, 65535, 65536, 70000, -70000, 2**31, -(2**31) - 1, 2**40 + 77, 65504, 65520, 1 << 62,
     -(1 << 63), 123456789],
    np.int64,
)  # fmt: skip
EDGE_BIG = np.array(
    [2**64 - 1, 2**63, 2**24 + 1, 2**53 + 1, 0, 1, 2**32 - 1, 2**40 + 2**16 + 1, 16777217, 16777219, 33554435,
     2**63 - 1, 5, 7, 9, 11],
    np.uint64,
)  # fmt: skip


def _sat(v: float, lo: int, hi: int) -> int:
    if math.isnan(v):
        return 0
    if v <= lo:
        return lo
    if v >= hi:
        return hi
    return int(v)


def _edge_casts() -> Program:
    n = EDGE_X.size

    def reference() -> list[np.ndarray]:
        xs = [float(v) for v in EDGE_X]

        def sat(lo: int, hi: int, dt: Any) -> np.ndarray:
            return np.array([_sat(v, lo, hi) for v in xs], dt)

        narrow = [_wrap(w, 8, True) + _wrap(w, 16, False) * 1000 + _wrap(w, 32, False) % 7 for w in EDGE_W.tolist()]
        return [
            sat(0, 255, np.uint8), sat(-128, 127, np.int8), sat(0, 65535, np.uint16),
            sat(-(2**31), 2**31 - 1, np.int32), sat(0, 2**32 - 1, np.uint32), sat(-(2**63), 2**63 - 1, np.int64),
            sat(0, 2**64 - 1, np.uint64), np.array([_wrap(v, 32, True) for v in narrow], np.int32),
            _f16_of_ints(EDGE_W),
            np.array([float(np.float32(b)) for b in EDGE_BIG.tolist()], np.float32),
        ]  # fmt: skip

    return launch_program(
        "simt3: casts at the edges of every int type, narrowing wraps, i64 -> f16, u64 -> f32",
        edge_casts,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (
            _dev(s, EDGE_X),
            _dev(s, EDGE_W),
            _dev(s, EDGE_BIG),
            sk.zeros(n, u8, s),
            sk.zeros(n, i8, s),
            sk.zeros(n, u16, s),
            sk.zeros(n, i32, s),
            sk.zeros(n, u32, s),
            sk.zeros(n, i64, s),
            sk.zeros(n, u64, s),
            sk.zeros(n, i32, s),
            sk.zeros(n, f16, s),
            sk.zeros(n, f32, s),
        ),
        tuple(range(3, 13)),
        reference,
    )


def _f16_of_ints(w: np.ndarray) -> np.ndarray:
    """Each int rounded to f16 (nearest even; past 65504 to inf): from its f64 value, exact below 2**53, and any
    larger int overflows f16 either way."""
    with np.errstate(over="ignore"):
        return np.array([np.float16(float(v)) for v in w.tolist()], np.float16)


# 10. An f16 shared array: every store rounds to f16 (small increments vanish), neighbours read after a barrier,
#     a bf16 output; block of 64 with 50 threads in range.
@simt.kernel
@simt.launch_contract(block=64)
def f16_scratch(a: Slice[f16], out: DisjointSlice[bf16], tiny: f32) -> None:
    t = thread.thread_idx_x()
    i = thread.index_1d().get()
    with simt.unsafe():
        s = simt.shared_array(f16, 64)
        s[t] = a[i] if i < len(a) else f16(0.0)
        for _ in range(10):
            s[t] += tiny
        thread.sync_threads()
        left = s[(t + 63) % 64]
        if i < len(a):
            out.get_unchecked_mut(i).set((s[t] - left) * 3.0)


def _f16_scratch() -> Program:
    from fresh2_simt_programs import round_bf16

    a = (np.linspace(-3, 7, 50) ** 2).astype(np.float16)

    def reference() -> list[np.ndarray]:
        s = np.zeros(64, np.float16)
        s[:50] = a
        for _ in range(10):
            s = (s.astype(np.float32) + np.float32(0.0004)).astype(np.float16)
        left = np.roll(s, 1)
        v = (s.astype(np.float32) - left.astype(np.float32)) * np.float32(3)
        return [round_bf16(v[:50])]

    return launch_program(
        "simt3: f16 shared array rounds every store, barrier, bf16 output",
        f16_scratch,
        simt.LaunchConfig1D(grid=1, block=64),
        lambda s: (_dev(s, a), sk.zeros(50, bf16, s), 0.0004),
        (1,),
        reference,
    )


# 11. Helpers with several returns: a classifier with early returns, a search loop returning from inside it.
@simt.device
def classify(x: f32) -> i32:
    if x != x:
        return i32(-1)
    if x < 0.0:
        return i32(0)
    if x < 1.0:
        return i32(1)
    return i32(2)


@simt.device
def first_above(a: Slice[f32], start: i64, count: i64, limit: f32) -> i64:
    total = f32(0.0)
    for k in range(count):
        total += a[start + k]
        if total > limit:
            return i64(k)
    return i64(-1)


@simt.kernel
@simt.launch_contract(block=32)
def helpers_returns(a: Slice[f32], kinds: DisjointSlice[i32], where: DisjointSlice[i64], limit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a) // 4:
        return
    with simt.unsafe():
        kinds.get_unchecked_mut(i).set(classify(a[4 * i]) * 10 + classify(a[4 * i + 1]))
        where.get_unchecked_mut(i).set(first_above(a, i64(4 * i), i64(4), limit))


def _helpers_returns() -> Program:
    a = np.array([((k * 7) % 11 - 3) * 0.25 for k in range(80)], np.float32)
    a[5] = np.nan
    a[17] = np.nan

    def cls(x: float) -> int:
        return -1 if x != x else 0 if x < 0 else 1 if x < 1 else 2

    def reference() -> list[np.ndarray]:
        kinds, where = [], []
        for i in range(20):
            kinds.append(cls(float(a[4 * i])) * 10 + cls(float(a[4 * i + 1])))
            total, found = np.float32(0), -1
            for k in range(4):
                total = np.float32(total + a[4 * i + k])
                if total > np.float32(0.6):
                    found = k
                    break
            where.append(found)
        return [np.array(kinds, np.int32), np.array(where, np.int64)]

    return launch_program(
        "simt3: helpers with several returns (early returns, a return inside a loop)",
        helpers_returns,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (_dev(s, a), sk.zeros(20, i32, s), sk.zeros(20, i64, s), 0.6),
        (1, 2),
        reference,
    )


# 12. A 5-point stencil through shared memory with a halo of 2 on each side, loaded by the edge threads; block of
#     64 over 150 elements (a partial last block), zeros outside the array.
R = 2
W0, W1, W2 = 0.25, -0.5, 1.5


@simt.kernel
@simt.launch_contract(block=64)
def halo_stencil(a: Slice[f32], out: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    i = thread.index_1d().get()
    n = len(a)
    with simt.unsafe():
        s = simt.shared_array(f32, 64 + 2 * R)
        s[t + R] = a[i] if i < n else f32(0.0)
        if t < R:
            j = i - R
            s[t] = a[j] if j >= 0 else f32(0.0)
            k = i + 64
            s[t + 64 + R] = a[k] if k < n else f32(0.0)
        thread.sync_threads()
        if i < n:
            c = t + R
            v = W0 * s[c - 2] + W1 * s[c - 1] + W2 * s[c] + W1 * s[c + 1] + W0 * s[c + 2]
            out.get_unchecked_mut(i).set(v)


def _halo_stencil() -> Program:
    a = np.cos(np.arange(150) * 0.37).astype(np.float32)

    def reference() -> list[np.ndarray]:
        p = np.concatenate([np.zeros(2, np.float32), a, np.zeros(2, np.float32)])
        w0, w1, w2 = np.float32(W0), np.float32(W1), np.float32(W2)
        v = w0 * p[0:150] + w1 * p[1:151]
        v = v + w2 * p[2:152]
        v = v + w1 * p[3:153]
        v = v + w0 * p[4:154]
        return [v.astype(np.float32)]

    return launch_program(
        "simt3: shared-memory stencil with a halo, barrier, partial last block",
        halo_stencil,
        simt.LaunchConfig1D.for_len(150, block=64),
        lambda s: (_dev(s, a), sk.zeros(150, f32, s)),
        (1,),
        reference,
    )


# 13. Atomics on every documented dtype (32/64-bit ints and floats): add, max, min, exchange, xor, CAS, a u32 add
#     that wraps; 90 threads in blocks of 96.
@simt.kernel
@simt.launch_contract(block=96)
def atomics_all(
    ai: AtomicSlice[i32], au: AtomicSlice[u32], al: AtomicSlice[i64], aul: AtomicSlice[u64], af: AtomicSlice[f32],
    ad: AtomicSlice[f64], n: u32,
) -> None:  # fmt: skip
    i = thread.index_1d().get()
    if i >= n:
        return
    v = i64(i)
    ai.fetch_add(0, i32(v) - 45)
    ai.fetch_max(1, i32(v * 7 % 50) - 25)
    ai.fetch_min(2, i32(v * 7 % 50) - 25, order="acq_rel")
    au.fetch_add(0, u32(100000000))
    au.fetch_max(1, u32(v * 2654435761 % 4294967296))
    au.fetch_or(2, u32(1) << u32(i % 32))
    al.fetch_add(0, -(v << 40), scope="block")
    al.fetch_min(1, v * v - 2000)
    if i == 17:
        al.compare_exchange(2, i64(0), v + 1000)
    if i == 18:
        al.compare_exchange(2, i64(5), v)  # fails whichever runs first: the element is 0 or 1017
    aul.fetch_add(0, u64(v) << u64(58))
    aul.fetch_xor(1, u64(v) * u64(0x9E3779B97F4A7C15))
    aul.fetch_max(2, u64(v) << u64(57))
    af.fetch_add(0, f32(v) * 0.5)
    af.fetch_max(1, f32(v) - 100.0)
    af.fetch_min(2, -f32(v) * 0.25, order="seq_cst")
    ad.fetch_add(0, f64(v) * 0.125)
    ad.fetch_max(1, -f64(v))
    ad.exchange(2, 7.5)


def _atomics_all() -> Program:
    n = 90
    vs = list(range(n))

    def reference() -> list[np.ndarray]:
        first_cas = 1017
        xor = 0
        for v in vs:
            xor ^= (v * 0x9E3779B97F4A7C15) % 2**64
        return [
            np.array([sum(v - 45 for v in vs), max(v * 7 % 50 - 25 for v in vs), min(v * 7 % 50 - 25 for v in vs)],
                     np.int32),
            np.array([(n * 100000000) % 2**32, max(v * 2654435761 % 2**32 for v in vs), 2**32 - 1], np.uint32),
            np.array([_wrap(sum(-(v << 40) for v in vs), 64, True), min(0, min(v * v - 2000 for v in vs)),
                      first_cas], np.int64),
            np.array([sum(v << 58 for v in vs) % 2**64, xor, max((v << 57) % 2**64 for v in vs)], np.uint64),
            np.array([sum(v * 0.5 for v in vs), 0.0, min(-v * 0.25 for v in vs)], np.float32),
            np.array([sum(v * 0.125 for v in vs), 0.0, 7.5], np.float64),
        ]  # fmt: skip

    return launch_program(
        "simt3: atomics on i32/u32/i64/u64/f32/f64 (add, max, min, or, xor, exchange, CAS, u32 wrap)",
        atomics_all,
        simt.LaunchConfig1D(grid=1, block=96),
        lambda s: (
            sk.zeros(3, i32, s),
            sk.zeros(3, u32, s),
            sk.zeros(3, i64, s),
            sk.zeros(3, u64, s),
            sk.zeros(3, f32, s),
            sk.zeros(3, f64, s),
            n,
        ),
        (0, 1, 2, 3, 4, 5),
        reference,
    )


# 14. `//` and `%` across widths and signs: i8 with i16, u8 with i32, i64 with a negative literal, u16 with u16,
#     i16 MIN // -1 (wraps), true division of two ints (f64).
@simt.kernel
@simt.launch_contract(block=32)
def mixed_division(
    a8: Slice[i8], b16: Slice[i16], u: Slice[u8], w: Slice[i32], q: DisjointSlice[i64], r: DisjointSlice[i64],
    t: DisjointSlice[f64],
) -> None:  # fmt: skip
    i = thread.index_1d().get()
    if i >= len(a8):
        return
    x = a8[i] // b16[i]
    y = u[i] % w[i]
    z = i64(w[i]) % -7
    m = i16(-32768) // i16(-1) + b16[i] * 0
    h = u16(u[i]) * u16(300) // u16(7)
    with simt.unsafe():
        q.get_unchecked_mut(i).set(i64(x) * 100000 + i64(m))
        r.get_unchecked_mut(i).set(i64(y) * 1000 + z * 10 + i64(h) * 100000000)
        t.get_unchecked_mut(i).set(w[i] / b16[i])


def _mixed_division() -> Program:
    k = 24
    a8 = np.array([(-1) ** j * (j * 11 % 128) for j in range(k)], np.int8)
    a8[0] = -128
    b16 = np.array([(-1) ** (j // 2) * (j % 9 + 1) for j in range(k)], np.int16)
    u = ((np.arange(k) * 29 + 5) % 256).astype(np.uint8)
    w = np.array([(-1) ** (j // 3) * (j * 37 % 50 + 1) for j in range(k)], np.int32)

    def reference() -> list[np.ndarray]:
        q, r, t = [], [], []
        for j in range(k):
            x = int(a8[j]) // int(b16[j])
            m = _wrap(-32768 // -1, 16, True)
            q.append(x * 100000 + m)
            y = int(u[j]) % int(w[j])
            z = int(w[j]) % -7
            h = (int(u[j]) * 300 % 2**16) // 7
            r.append(y * 1000 + z * 10 + h * 100000000)
            t.append(int(w[j]) / int(b16[j]))
        return [np.array(q, np.int64), np.array(r, np.int64), np.array(t, np.float64)]

    return launch_program(
        "simt3: // and % across widths and signs, i16 MIN // -1 wraps, u16 product wraps, int / int",
        mixed_division,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (
            _dev(s, a8),
            _dev(s, b16),
            _dev(s, u),
            _dev(s, w),
            sk.zeros(k, i64, s),
            sk.zeros(k, i64, s),
            sk.zeros(k, f64, s),
        ),
        (4, 5, 6),
        reference,
    )


# 15. A reverse loop (negative step) with `continue` over NaN and `break` at the first hit; -1 when none.
@simt.kernel
@simt.launch_contract(block=32)
def last_above(a: Slice[f32], seg: i32, limit: f32, out: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a) // seg:
        return
    found = i32(-1)
    skipped = i32(0)
    for j in range(seg - 1, -1, -1):
        v = a[i * seg + j]
        if v != v:
            skipped += 1
            continue
        if v > limit:
            found = i32(j)
            break
    if (o := out.get_mut(idx)) is not None:
        o.set(found * 100 + skipped)


def _last_above() -> Program:
    seg, rows = 9, 30
    a = np.sin(np.arange(seg * rows) * 1.3).astype(np.float32)
    a[::7] = np.nan

    def reference() -> list[np.ndarray]:
        out = []
        for i in range(rows):
            found, skipped = -1, 0
            for j in range(seg - 1, -1, -1):
                v = a[i * seg + j]
                if np.isnan(v):
                    skipped += 1
                    continue
                if v > np.float32(0.8):
                    found = j
                    break
            out.append(found * 100 + skipped)
        return [np.array(out, np.int32)]

    return launch_program(
        "simt3: reverse range loop with continue and break",
        last_above,
        simt.LaunchConfig1D.for_len(rows, block=32),
        lambda s: (_dev(s, a), seg, 0.8, sk.zeros(rows, i32, s)),
        (3,),
        reference,
    )


# 16. math.* on f64 specials: domain errors, overflow, signed zeros, atan2 of zeros, fmod of negatives.
@simt.kernel
@simt.launch_contract(block=32)
def math_specials(x: Slice[f64], y: Slice[f64], out: DisjointSlice[f64], ints: DisjointSlice[i64]) -> None:
    i = thread.index_1d().get()
    if i >= len(x):
        return
    a = x[i]
    b = y[i]
    with simt.unsafe():
        out.get_unchecked_mut(8 * i).set(math.sqrt(a))
        out.get_unchecked_mut(8 * i + 1).set(math.log(a))
        out.get_unchecked_mut(8 * i + 2).set(math.exp(b))
        out.get_unchecked_mut(8 * i + 3).set(math.atan2(a, b))
        out.get_unchecked_mut(8 * i + 4).set(math.fmod(a, b))
        out.get_unchecked_mut(8 * i + 5).set(f64(math.trunc(a)))
        ints.get_unchecked_mut(2 * i).set(math.floor(a))  # an int, as in Python: saturated, NaN gives 0
        ints.get_unchecked_mut(2 * i + 1).set(math.ceil(b))
        out.get_unchecked_mut(8 * i + 6).set(math.hypot(a, b))
        out.get_unchecked_mut(8 * i + 7).set(
            f64(math.isinf(a)) + 2.0 * f64(math.isfinite(b)) + 4.0 * f64(math.isnan(a))
        )


MX = np.array([-1.0, 0.0, -0.0, math.inf, -math.inf, math.nan, -7.5, 2.5, 1e-310, 700.0], np.float64)
MY = np.array([1000.0, -0.0, 0.0, math.nan, 2.0, -3.0, 2.0, -0.5, -1000.0, 710.0], np.float64)


def _math_specials() -> Program:
    def ref_one(a: float, b: float) -> list[float]:
        with np.errstate(all="ignore"):
            return [
                float(np.sqrt(a)), float(np.log(a)), float(np.exp(b)), math.atan2(a, b),
                float(np.fmod(a, b)), float(_sat(a, -(2**63), 2**63 - 1)), float(np.hypot(a, b)),
                float(math.isinf(a)) + 2.0 * float(math.isfinite(b)) + 4.0 * float(math.isnan(a)),
            ]  # fmt: skip

    def reference() -> list[np.ndarray]:
        pairs = list(zip(MX.tolist(), MY.tolist(), strict=True))
        ints = [_sat(float(f(v)), -(2**63), 2**63 - 1) for a, b in pairs for f, v in ((np.floor, a), (np.ceil, b))]
        return [np.array([v for a, b in pairs for v in ref_one(a, b)]), np.array(ints, np.int64)]

    return launch_program(
        "simt3: math.* on f64 specials (domain errors, overflow, signed zeros, atan2, fmod, hypot)",
        math_specials,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (_dev(s, MX), _dev(s, MY), sk.zeros(8 * MX.size, f64, s), sk.zeros(2 * MX.size, i64, s)),
        (2, 3),
        reference,
        rtol=1e-15,
    )


# 17. Warp max/min over f16 loads with NaN in a partial warp (block of 40: lanes 32..39 alone); NaN never wins
#     over a number (simt-compiler.md), an all-NaN group stays NaN.
@simt.kernel
@simt.launch_contract(block=40)
def warp_extremes(a: Slice[f16], hi: DisjointSlice[f32], lo: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = f32(a[i])
    top = warp.reduce_max(v)
    bottom = warp.reduce_min(v)
    with simt.unsafe():
        lo.get_unchecked_mut(i).set(bottom)
    if (o := hi.get_mut(idx)) is not None:
        o.set(top)


def _warp_extremes() -> Program:
    a = ((np.arange(80) * 13) % 31 - 15).astype(np.float16) * np.float16(0.5)
    a[[3, 10, 32, 40, 41]] = np.nan
    a[72:80] = np.nan  # the partial warp of the second block: all NaN

    def reference() -> list[np.ndarray]:
        hi, lo = np.zeros(80, np.float32), np.zeros(80, np.float32)
        for start, stop in ((0, 32), (32, 40), (40, 72), (72, 80)):
            seg = a[start:stop].astype(np.float32)
            with np.errstate(invalid="ignore"):
                hi[start:stop] = np.nan if np.isnan(seg).all() else np.nanmax(seg)
                lo[start:stop] = np.nan if np.isnan(seg).all() else np.nanmin(seg)
        return [hi, lo]

    return launch_program(
        "simt3: warp reduce_max/min of f16 values with NaN in partial warps",
        warp_extremes,
        simt.LaunchConfig1D(grid=2, block=40),
        lambda s: (_dev(s, a), sk.zeros(80, f32, s), sk.zeros(80, f32, s)),
        (1, 2),
        reference,
    )


# 18. Short-circuit `or` / `and` with an atomic on the right (it runs only when the left side does not decide), a
#     walrus in a condition.
@simt.kernel
@simt.launch_contract(block=32)
def short_circuit(a: Slice[f32], hits: AtomicSlice[i32], out: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    code = i32(0)
    if a[i] > 0.0 or hits.fetch_add(0, 1) < 0:
        code += 1
    if a[i] < -1.0 and hits.fetch_add(1, 1) >= 0:
        code += 2
    if (d := a[i] * 2.0) > 1.0 and not d > 3.0:
        code += 4
    if (o := out.get_mut(idx)) is not None:
        o.set(code)


def _short_circuit() -> Program:
    a = np.linspace(-3, 3, 29).astype(np.float32)

    def reference() -> list[np.ndarray]:
        d = a * np.float32(2)
        code = (a > 0).astype(np.int32) + 2 * (a < -1) + 4 * ((d > 1) & ~(d > 3))
        return [code.astype(np.int32), np.array([int((a <= 0).sum()), int((a < -1).sum())], np.int32)]

    return launch_program(
        "simt3: short-circuit or/and with an atomic on the right, a walrus in a condition",
        short_circuit,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (_dev(s, a), sk.zeros(2, i32, s), sk.zeros(29, i32, s)),
        (2, 1),
        reference,
    )


# 19. Narrow typed accumulators that wrap: a u8 sum, an i8 product, u32 negation, ~ on u16, u32 + i32 -> i64.
@simt.kernel
@simt.launch_contract(block=32)
def narrow_accumulators(a: Slice[u8], b: Slice[i8], s: Slice[u32], k: Slice[i32], out: DisjointSlice[i64]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    acc = u8(0)
    prod = i8(1)
    for j in range(8):
        acc += a[(i + j) % len(a)]
        prod *= b[(i + j) % len(b)]
    neg = -s[i % len(s)]
    inv = ~u16(s[i % len(s)])
    mixed = s[i % len(s)] + k[i % len(k)]
    if (o := out.get_mut(idx)) is not None:
        o.set(i64(acc) + i64(prod) * 1000 + i64(neg) % 1000003 + i64(inv) * 7 + mixed)


def _narrow_accumulators() -> Program:
    a = ((np.arange(20) * 97 + 31) % 256).astype(np.uint8)
    b = np.array([3, -5, 7, -2, 11, 2, -3, 5, 9, -7, 13], np.int8)
    s = np.array([0, 1, 2**31, 2**32 - 1, 123456789, 65537], np.uint32)
    k = np.array([-1, -(2**31), 2**31 - 1, 7, -99], np.int32)

    def reference() -> list[np.ndarray]:
        out = []
        for i in range(32):
            acc = sum(int(a[(i + j) % 20]) for j in range(8)) % 256
            prod = 1
            for j in range(8):
                prod = _wrap(prod * int(b[(i + j) % 11]), 8, True)
            sv = int(s[i % 6])
            neg = (-sv) % 2**32
            inv = (~sv) % 2**16
            mixed = sv + int(k[i % 5])
            out.append(acc + prod * 1000 + neg % 1000003 + inv * 7 + mixed)
        return [np.array(out, np.int64)]

    return launch_program(
        "simt3: narrow accumulators wrap (u8 sum, i8 product), u32 negation, ~u16, u32 + i32 -> i64",
        narrow_accumulators,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda st: (_dev(st, a), _dev(st, b), _dev(st, s), _dev(st, k), sk.zeros(32, i64, st)),
        (4,),
        reference,
    )


# 20. Conditional expressions whose arms differ in type (i32 / f32 -> f32, f16 / f32 -> f32, i8 / i64 -> i64),
#     and `lane_id()` in a 2-D block (5, 9): x fastest, modulo 32.
@simt.kernel
@simt.launch_contract(block=(5, 9))
def arms_and_lanes(x: Slice[f32], h: Slice[f16], lanes: DisjointSlice[i32], mixed: DisjointSlice[f32]) -> None:
    r = thread.thread_idx_y()
    c = thread.thread_idx_x()
    k = r * 5 + c
    v = x[k]
    p = i32(k) if v > 0.0 else v
    q = h[k] if k % 3 == 0 else v * 0.5
    z = i8(-k) if k % 2 == 0 else i64(k) << 33
    with simt.unsafe():
        lanes.get_unchecked_mut(k).set(i32(thread.lane_id()))
        mixed.get_unchecked_mut(k).set(p + q + f32(z % 1000))


def _arms_and_lanes() -> Program:
    x = np.linspace(-2, 2, 45).astype(np.float32)
    h = (np.arange(45) * 0.3).astype(np.float16)

    def reference() -> list[np.ndarray]:
        out = []
        for k in range(45):
            v = x[k]
            p = np.float32(k) if v > 0 else v
            q = np.float32(h[k]) if k % 3 == 0 else np.float32(v * np.float32(0.5))
            z = _wrap(-k, 8, True) if k % 2 == 0 else k << 33
            out.append(np.float32(np.float32(p + q) + np.float32(z % 1000)))
        return [np.arange(45, dtype=np.int32) % 32, np.array(out, np.float32)]

    return launch_program(
        "simt3: conditional expressions with arms of different types, lane_id in a (5, 9) block",
        arms_and_lanes,
        simt.LaunchConfig2D(grid=(1, 1), block=(5, 9)),
        lambda s: (_dev(s, x), _dev(s, h), sk.zeros(45, i32, s), sk.zeros(45, f32, s)),
        (2, 3),
        reference,
    )


# 21. Locals typed by the join of their assignments (simt-compiler.md): `x` holds an i8 and, in some threads, an
#     i64, so it is an i64 everywhere; a typed u8 accumulator keeps u8 under `+=` an i32; a local first bound to
#     the literal 300 and later to a u8 is a u8 (300 wraps to 44); a helper returning an i64 or an i8 returns
#     an i64 (the join of its returns); a helper's annotated parameters convert their arguments (an i8 given for
#     `x: i64` is an i64 there, an f32 given for `y: f64` an f64).
@simt.device
def scaled(x: i64, y: f64) -> i64:
    return x * 1000 + i64(y * 1e9)


@simt.device
def widen(x: i8, big: i64) -> i64:
    if big > 0:
        return big
    return x  # type: ignore[return-value]  # the compilers widen it: the join of the returns


@simt.kernel
@simt.launch_contract(block=32)
def joined_locals(a: Slice[i8], w: Slice[i32], f: Slice[f32], out: DisjointSlice[i64], s: DisjointSlice[i64]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    doubled = x * 2
    if w[i] < 0:
        x = i64(w[i])
    acc = u8(250)
    acc += w[i]
    m = 300
    if i % 2 == 0:
        m = u8(i)
    if (o := out.get_mut(idx)) is not None:
        o.set(doubled * 1000000 + x * 1000 + i64(acc) * 10 + i64(m) + widen(a[i], i64(0)) * 4 * 1000000000000)
    with simt.unsafe():
        s.get_unchecked_mut(i).set(scaled(a[i], f[i]))  # type: ignore[arg-type]  # converted to the annotations


def _joined_locals() -> Program:
    a = np.array([100, -100, 127, -128, 64, -65, 3, 0, 90, -90, 120, 5], np.int8)
    w = np.array([7, -3, 10, -200, 6, 1000, -1, 0, 300, -300, 5, -6], np.int32)
    f = (np.arange(12) * 0.1 + 0.05).astype(np.float32)

    def reference() -> list[np.ndarray]:
        out = []
        for i in range(a.size):
            x = int(a[i])
            doubled = x * 2
            if w[i] < 0:
                x = int(w[i])
            acc = (250 + int(w[i])) % 256
            m = i if i % 2 == 0 else 300 % 256
            out.append(doubled * 1000000 + x * 1000 + acc * 10 + m + int(a[i]) * 4 * 1000000000000)
        scaled = [int(a[i]) * 1000 + int(float(f[i]) * 1e9) for i in range(a.size)]
        return [np.array(out, np.int64), np.array(scaled, np.int64)]

    return launch_program(
        "simt3: locals and helper returns of joined types, annotated helper parameters, a u8 accumulator",
        joined_locals,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (_dev(s, a), _dev(s, w), _dev(s, f), sk.zeros(a.size, i64, s), sk.zeros(a.size, i64, s)),
        (3, 4),
        reference,
    )


# 22. Stores of a wider int into a narrower buffer or shared array wrap, as the GPU's stores truncate (an index
#     times 100 into a u8 buffer, times 10**8 into an i32 one, an i64 into an i16 shared array), and so do the
#     values of atomics (a u32 add of i * 10**9, an i32 max); an f64 exchanged into an f32 slot rounds.
@simt.kernel
@simt.launch_contract(block=32)
def narrowing_stores(
    small: DisjointSlice[u8], mid: DisjointSlice[i32], back: DisjointSlice[i16], au: AtomicSlice[u32],
    ai: AtomicSlice[i32], af: AtomicSlice[f32],
) -> None:  # fmt: skip
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    i = idx.get()
    with simt.unsafe():
        s = simt.shared_array(i16, 32)
        s[t] = i64(i) * 5000 - 70000
        mid.get_unchecked_mut(i).set(i * 100000000)
        back.get_unchecked_mut(i).set(s[t])
    au.fetch_add(0, i * 1000000000)
    ai.fetch_max(0, i * 100000000 - 2000000000)
    if i == 3:
        af.exchange(0, f64(i) * 0.1)
    if (o := small.get_mut(idx)) is not None:
        o.set(i * 100)


def _narrowing_stores() -> Program:
    def reference() -> list[np.ndarray]:
        k = range(32)
        return [
            np.array([(i * 100) % 256 for i in k], np.uint8),
            np.array([_wrap(i * 100000000, 32, True) for i in k], np.int32),
            np.array([_wrap(i * 5000 - 70000, 16, True) for i in k], np.int16),
            np.array([sum(i * 1000000000 for i in k) % 2**32], np.uint32),
            np.array([max(_wrap(i * 100000000 - 2000000000, 32, True) for i in k)], np.int32),
            np.array([3 * 0.1], np.float32),
        ]

    return launch_program(
        "simt3: stores and atomics of wider ints into narrower elements wrap, an f64 exchanged into f32 rounds",
        narrowing_stores,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (
            sk.zeros(32, u8, s),
            sk.zeros(32, i32, s),
            sk.zeros(32, i16, s),
            sk.zeros(1, u32, s),
            sk.zeros(1, i32, s),
            sk.zeros(1, f32, s),
        ),
        (0, 1, 2, 3, 4, 5),
        reference,
    )


# 23. Python's `int()` and `float()` in a kernel: an i64 (truncating, saturating, NaN giving 0, as numerics.md
#     says of every float -> int conversion) and an f64 (so `float(a[i]) * a[i]` is computed in f64).
@simt.kernel
@simt.launch_contract(block=32)
def builtin_casts(a: Slice[f32], out: DisjointSlice[i64], fl: DisjointSlice[f64]) -> None:
    i = thread.index_1d().get()
    if i >= len(a):
        return
    with simt.unsafe():
        out.get_unchecked_mut(i).set(int(a[i]) + i64(bool(a[i])) * 7)
        fl.get_unchecked_mut(i).set(float(i) / 3 + float(a[i]) * a[i])


def _builtin_casts() -> Program:
    a = np.array([np.nan, np.inf, -np.inf, 1e20, -2.5, 0.0, -0.0, 3.9, 0.1, 16777217.0], np.float32)

    def reference() -> list[np.ndarray]:
        ints, floats = [], []
        for i, v in enumerate(float(x) for x in a):
            ints.append(_wrap(_sat(v, -(2**63), 2**63 - 1) + 7 * int(v != 0.0), 64, True))
            floats.append(i / 3 + v * v)
        return [np.array(ints, np.int64), np.array(floats, np.float64)]

    return launch_program(
        "simt3: int() and float() in a kernel (i64 saturating, f64)",
        builtin_casts,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (_dev(s, a), sk.zeros(a.size, i64, s), sk.zeros(a.size, f64, s)),
        (1, 2),
        reference,
    )


# 24. `math.*` of an int is an f64 (the front end converts the argument), so `math.sqrt(n[i]) * a[i]` computes in
#     f64; `abs` of i8 -128 wraps to -128; `min(u8, i8)` is an i16 (numpy's promotion), so `* 1000` wraps in i16.
@simt.kernel
@simt.launch_contract(block=32)
def math_of_ints(a: Slice[f32], n: Slice[i32], fl: DisjointSlice[f64], x: DisjointSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i >= len(a):
        return
    with simt.unsafe():
        fl.get_unchecked_mut(i).set(math.sqrt(n[i]) * a[i] + math.pi * a[i])
        x.get_unchecked_mut(i).set(abs(i8(n[i])) + min(u8(n[i]), i8(n[i])) * 1000)


def _math_of_ints() -> Program:
    a = (np.arange(8) * 0.1 + 0.05).astype(np.float32)
    n = np.array([2, 3, -128, 200, 255, 7, -1, 10], np.int32)

    def reference() -> list[np.ndarray]:
        fl, x = [], []
        for v, k in zip(a.tolist(), n.tolist(), strict=True):
            with np.errstate(invalid="ignore"):
                root = float(np.sqrt(np.float64(k)))
            fl.append(root * v + float(np.float32(np.float32(math.pi) * np.float32(v))))
            s8 = _wrap(k, 8, True)
            small = min(_wrap(k, 8, False), s8)  # an i16: the product and the sum wrap in 16 bits
            x.append(_wrap(_wrap(abs(s8), 8, True) + _wrap(small * 1000, 16, True), 16, True))
        return [np.array(fl, np.float64), np.array(x, np.int32)]

    return launch_program(
        "simt3: math.* of ints is f64, abs of i8 -128 wraps, min(u8, i8) is i16",
        math_of_ints,
        simt.LaunchConfig1D(grid=1, block=32),
        lambda s: (_dev(s, a), _dev(s, n), sk.zeros(8, f64, s), sk.zeros(8, i32, s)),
        (2, 3),
        reference,
    )


PROGRAMS: list[Program] = [
    _in_range(),
    _weigh_2d(),
    _label_3d(),
    _collatz(),
    _fnv1a(),
    _xorshift(),
    _big_shifts(),
    _specials(),
    _edge_casts(),
    _f16_scratch(),
    _helpers_returns(),
    _halo_stencil(),
    _atomics_all(),
    _mixed_division(),
    _last_above(),
    _math_specials(),
    _warp_extremes(),
    _short_circuit(),
    _narrow_accumulators(),
    _arms_and_lanes(),
    _joined_locals(),
    _narrowing_stores(),
    _builtin_casts(),
    _math_of_ints(),
]


# Refusals: recursion (direct and mutual) is SK009 on both executors, at the call that recurses.
@simt.device
def factorial(n: i64) -> i64:
    if n <= 1:
        return i64(1)
    return n * factorial(n - 1)


@simt.kernel
@simt.launch_contract(block=32)
def recursive(out: DisjointSlice[i64]) -> None:
    idx = thread.index_1d()
    k = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(factorial(i64(k)))


@simt.device
def is_even(n: i64) -> bool:
    return True if n == 0 else is_odd(n - 1)


@simt.device
def is_odd(n: i64) -> bool:
    return False if n == 0 else is_even(n - 1)


@simt.kernel
@simt.launch_contract(block=32)
def mutually_recursive(out: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    k = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(i32(is_even(i64(k))))


def _refusal(name: str, kernel: Any, dtype: Any, code: str, line_text: str) -> Refusal:
    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        out = sk.zeros(8, dtype, stream)
        kernel.launch(kernel.prepare(simt.LaunchConfig1D.for_len(8, block=32), device), stream, out)
        return [out.to_numpy(stream)]

    def assemble(arch: str) -> Any:
        from safekernels.codegen.pipeline import compile_simt_kernel

        return compile_simt_kernel(kernel, arch="sm_90" if arch == "sm_90a" else arch, use_cache=False)

    return Refusal(name, run, assemble, code, line_text)


REFUSALS = [
    _refusal("simt3: a recursive helper", recursive, i64, "SK009", "return n * factorial(n - 1)"),
    _refusal("simt3: mutually recursive helpers", mutually_recursive, i32, "SK009", "is_even(n - 1)"),
]
