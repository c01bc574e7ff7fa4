"""Fresh SIMT programs (docs/simt.md, docs/simt-compiler.md, docs/numerics.md): loops with carried values, loop
variables after the loop, shadowing, scalar parameters of each dtype, `//` and `%` of negatives, casts, mixed
promotion, min/max/abs, atomics, helpers, warp reductions in a partial warp, shared memory and print/assert."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from fresh_program import Program, Refusal, simt_program

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f16, f32, f64, i8, i16, i32, i64, u16, u32, u64
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread, warp

N = 40  # threads: one full warp and a partial one
BLOCK = 40


# 1. Loops: a counter and an f32 accumulator carried; the loop variable read after the loop; a while loop
# with break and continue; a negative step.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def loops(a: Slice[f32], out: DisjointSlice[f32], last: DisjointSlice[i64]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    acc = f32(0.0)
    steps = 0
    k = -1
    for k in range(i % 5):
        acc += a[k] * f32(k)
        steps += 1
    j = i
    while True:
        j -= 3
        if j % 2 == 0:
            continue
        if j < 0:
            break
    down = 0
    for m in range(i, -1, -4):
        down = down * 3 + m
    if (o := out.get_mut(idx)) is not None:
        o.set(acc + f32(steps))
    with simt.unsafe():
        last.get_unchecked_mut(i).set(k * 1_000_000 + j * 1000 + down % 1000)


# 2. `//` and `%` of negatives: i32, i64, u32 and literals.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def division(a: Slice[i32], out: DisjointSlice[i64], uout: DisjointSlice[u32], d: i32, w: i64, u: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = a[i]
    q = x // d + (x % d) * 100 + (i64(x) // w) * 10_000 + (-7 // 2) * 1_000_000 + (-7 % 3) * 10_000_000
    if (o := out.get_mut(idx)) is not None:
        o.set(q)
    with simt.unsafe():
        uout.get_unchecked_mut(i).set(u // u32(i + 1) + u % u32(7))


# 3. Casts: float -> int truncation toward zero (in range), int narrowing, f16 rounding, bool.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def casts(a: Slice[f32], ints: DisjointSlice[i32], halves: DisjointSlice[f32], small: DisjointSlice[i8]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = a[i]
    with simt.unsafe():
        ints.get_unchecked_mut(i).set(i32(x * f32(10.0)) + i32(bool(i % 3)))
        halves.get_unchecked_mut(i).set(f16(x * f32(1000.0)) + f32(0.0))
        small.get_unchecked_mut(i).set(i8(i32(x * f32(100.0)) * 3))


# 4. Mixed promotion: typed int with f32, i32 with i64, u32 with i32, int true division to f64.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def promotion(
    a: Slice[f32], b: Slice[i32], fout: DisjointSlice[f32], iout: DisjointSlice[i64], dout: DisjointSlice[f64], n: u32
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = a[i]
    k = b[i]
    with simt.unsafe():
        fout.get_unchecked_mut(i).set(k * x + f32(i) * 0.5)
        iout.get_unchecked_mut(i).set(k + i64(i) * 3 + n + k)
        dout.get_unchecked_mut(i).set(k / 3 + i / 7)


# 5. min/max/abs on ints and floats, ternaries.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def extremes(a: Slice[f32], b: Slice[i32], fout: DisjointSlice[f32], iout: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = a[i]
    k = b[i]
    with simt.unsafe():
        fout.get_unchecked_mut(i).set(max(x, f32(-0.5)) + min(x, f32(0.25), abs(x) - f32(1.0)))
        iout.get_unchecked_mut(i).set(max(k, -k // 2) * 10 + abs(k % 7 - 3) if k != 0 else min(k, -1))


# 6. Atomics: a histogram, a max, a compare-exchange claim and a bitwise or.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def atomics(
    b: Slice[i32], hist: AtomicSlice[i32], top: AtomicSlice[i32], owner: AtomicSlice[i32], bits: AtomicSlice[u32]
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    k = b[i]
    hist.fetch_add((k % 8 + 8) % 8, 1)
    top.fetch_max(0, k)
    owner.compare_exchange(0, 0, 7)  # the first thread to arrive stores 7; the rest see 7
    bits.fetch_or(0, u32(1) << u32(i % 32))


# 7. A device helper with a loop and an early return, called in a loop.
@simt.device
def collatz_steps(n: i64, limit: i64) -> i64:
    steps = 0
    while n != 1:
        if steps >= limit:
            return -steps  # type: ignore[return-value]
        n = n // 2 if n % 2 == 0 else 3 * n + 1  # type: ignore[assignment]
        steps += 1
    return steps  # type: ignore[return-value]


@simt.kernel
@simt.launch_contract(block=BLOCK)
def helper_calls(out: DisjointSlice[i64]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    total = 0
    for s in range(1, 3):
        total = total * 1000 + collatz_steps(i64(i + s), i64(20))
    if (o := out.get_mut(idx)) is not None:
        o.set(total)


# 8. Scalar parameters of each dtype.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def scalar_params(out: DisjointSlice[f64], a: i8, b: i16, c: u16, d: u64, e: f16, f: f64, g: bool, h: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = f64(a) * 2.0 + f64(b) + f64(c) + f64(d % u64(1000)) + f64(e) * 4.0 + f + f64(g) + f64(h + u32(i))
    if (o := out.get_mut(idx)) is not None:
        o.set(v)


# 9. Shadowing and rebinding: a parameter rebound, a name rebound in both branches, walrus in a loop.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def rebinding(a: Slice[i32], out: DisjointSlice[i32], n: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = n + i32(i)
    x = a[i]
    if x > 0:
        x = x * 2  # type: ignore[assignment]
    else:
        x = -x + n  # type: ignore[assignment]
    t = 0
    while (t := t + 3) < 10:
        x += t  # type: ignore[assignment]
    if (o := out.get_mut(idx)) is not None:
        o.set(x + n + i32(t))


# 10. Warp reductions and shuffles in a partial last warp (block of 40 threads).
@simt.kernel
@simt.launch_contract(block=BLOCK)
def warp_ops(a: Slice[f32], b: Slice[i32], fout: DisjointSlice[f32], iout: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    s = warp.reduce_sum(a[i])
    m = warp.reduce_max(b[i])
    down = warp.shfl_down(b[i], 3)
    with simt.unsafe():
        fout.get_unchecked_mut(i).set(s)
        iout.get_unchecked_mut(i).set(m * 1000 + down)


# 11. Shared memory: reverse a block through a shared array.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def reverse_block(a: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    t = thread.thread_idx_x()
    with simt.unsafe():
        s = simt.shared_array(f32, BLOCK)
        s[t] = a[i]
    thread.sync_threads()
    with simt.unsafe():
        out.get_unchecked_mut(i).set(s[BLOCK - 1 - t] * f32(2.0))


# 12. print and a passing assert, and math.* on f32.
@simt.kernel
@simt.launch_contract(block=BLOCK)
def print_math(a: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i == 0:
        print("n", len(a), "first", a[0])
    assert len(a) >= 1, "empty input"
    x = a[i]
    if (o := out.get_mut(idx)) is not None:
        o.set(math.sqrt(x * x + f32(1.0)) + math.floor(x) + math.fmod(x, f32(0.75)))


# 13. Shifts by run-time amounts past the width and division by -1 at the minimum (docs/numerics.md).
@simt.kernel
@simt.launch_contract(block=BLOCK)
def shifts_and_minus_one(a: Slice[i32], out: DisjointSlice[i64], amount: i32, d: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = a[i]
    s = amount + i32(i % 3)
    v = i64(x << s) * 7 + i64(x >> s) * 3 + i64(x // d) + i64(x % d) * 11 + i64(u32(x) >> u32(s))
    if (o := out.get_mut(idx)) is not None:
        o.set(v)


# Refused alike: a typed int with a float literal, and u64 mixed with a signed int (SK003).
@simt.kernel
@simt.launch_contract(block=BLOCK)
def int_times_float_literal(a: Slice[i32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 0.5)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def unsigned_with_signed(a: Slice[i32], out: DisjointSlice[i64], big: u64) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(i64(big + a[i]))


def _dev(stream: Any, a: np.ndarray) -> Any:
    return sk.to_device(a, stream)


def _programs() -> list[Program]:
    rng = np.random.default_rng(2121)
    af = rng.uniform(-2, 2, N).astype(np.float32)
    ai = rng.integers(-50, 50, N).astype(np.int32)
    whole = rng.integers(-8, 9, N).astype(np.float32)
    threads = range(N)

    def loops_ref() -> list[np.ndarray]:
        out, last = [], []
        for i in threads:
            acc, steps, k = np.float32(0), 0, -1
            for k in range(i % 5):
                acc = np.float32(acc + af[k] * np.float32(k))
                steps += 1
            j = i
            while True:
                j -= 3
                if j % 2 == 0:
                    continue
                if j < 0:
                    break
            down = 0
            for m in range(i, -1, -4):
                down = down * 3 + m
            out.append(np.float32(acc + np.float32(steps)))
            last.append(k * 1_000_000 + j * 1000 + down % 1000)
        return [np.array(out, np.float32), np.array(last, np.int64)]

    d, w, u = -3, -5, 4_000_000_000

    def division_ref() -> list[np.ndarray]:
        q = [
            int(x) // d + (int(x) % d) * 100 + (int(x) // w) * 10_000 + (-7 // 2) * 1_000_000 + (-7 % 3) * 10**7
            for x in ai
        ]
        uq = [u // (i + 1) + u % 7 for i in threads]
        return [np.array(q, np.int64), np.array(uq, np.uint32)]

    def casts_ref() -> list[np.ndarray]:
        ints = np.trunc(af * np.float32(10)).astype(np.int32) + np.array([i % 3 != 0 for i in threads], np.int32)
        halves = (af * np.float32(1000)).astype(np.float16).astype(np.float32)
        small = ((np.trunc(af * np.float32(100)).astype(np.int64) * 3 + 128) % 256 - 128).astype(np.int8)
        return [ints, halves, small]

    n_u32 = 7

    def promotion_ref() -> list[np.ndarray]:
        i = np.arange(N)
        f = ai.astype(np.float32) * af + i.astype(np.float32) * np.float32(0.5)
        ii = ai.astype(np.int64) * 2 + i * 3 + n_u32
        dd = ai.astype(np.float64) / 3 + i / 7
        return [f.astype(np.float32), ii, dd]

    def extremes_ref() -> list[np.ndarray]:
        fo, io = [], []
        for x, k in zip(af, ai, strict=True):
            fo.append(max(x, np.float32(-0.5)) + min(x, np.float32(0.25), abs(x) - np.float32(1)))
            k = int(k)
            io.append(max(k, -k // 2) * 10 + abs(k % 7 - 3) if k != 0 else min(k, -1))
        return [np.array(fo, np.float32), np.array(io, np.int32)]

    def atomics_ref() -> list[np.ndarray]:
        hist = np.bincount((ai % 8 + 8) % 8, minlength=8).astype(np.int32)
        return [hist, np.array([ai.max()], np.int32), np.array([7], np.int32), np.array([2**32 - 1], np.uint32)]

    def collatz(n: int, limit: int) -> int:
        steps = 0
        while n != 1:
            if steps >= limit:
                return -steps
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        return steps

    def helper_ref() -> list[np.ndarray]:
        out = []
        for i in threads:
            total = 0
            for s in range(1, 3):
                total = total * 1000 + collatz(i + s, 20)
            out.append(total)
        return [np.array(out, np.int64)]

    params = (-5, -300, 65535, 2**63 + 123, 0.1, 1e-3, True, 2**32 - 10)

    def scalar_ref() -> list[np.ndarray]:
        a, b, c, dd, e, f, _flag, h = params
        e16 = float(np.float16(e))
        return [np.array([a * 2.0 + b + c + dd % 1000 + e16 * 4.0 + f + 1.0 + float((h + i) % 2**32) for i in threads])]

    def rebinding_ref() -> list[np.ndarray]:
        out = []
        for i in threads:
            n = 4 + i
            x = int(ai[i])
            x = x * 2 if x > 0 else -x + n
            x += 3 + 6 + 9
            out.append(x + n + 12)
        return [np.array(out, np.int32)]

    def warp_ref() -> list[np.ndarray]:
        fo, io = [], []
        for i in threads:
            lanes = range(0, 32) if i < 32 else range(32, N)
            fo.append(sum(float(whole[j]) for j in lanes))
            src = i + 3 if i + 3 in lanes else i
            io.append(max(int(ai[j]) for j in lanes) * 1000 + int(ai[src]))
        return [np.array(fo, np.float32), np.array(io, np.int32)]

    def math_ref() -> list[np.ndarray]:
        x = af.astype(np.float64)
        s = np.sqrt(np.float32(af * af + np.float32(1)).astype(np.float64)).astype(np.float32)
        fm = np.fmod(x, 0.75).astype(np.float32)
        return [(s + np.floor(af) + fm).astype(np.float32)]

    def i32s(s: Any) -> Any:
        return _dev(s, ai)

    edge = ai.copy()
    edge[:4] = [-(2**31), 2**31 - 1, -1, 0]

    def shifts_ref() -> list[np.ndarray]:
        out = []
        for i in threads:
            x, s = int(edge[i]), 31 + i % 3

            def wrap32(v: int) -> int:
                return (v + 2**31) % 2**32 - 2**31

            shl = wrap32(x << s) if s < 32 else 0
            sar = x >> min(s, 31)
            shr = (x % 2**32) >> s if s < 32 else 0
            out.append(shl * 7 + sar * 3 + wrap32(-x) + 0 * 11 + shr)
        return [np.array(out, np.int64)]

    return [
        simt_program(
            "simt: loops, loop variable after the loop, while/break/continue, negative step",
            loops,
            lambda dev, s: (_dev(s, af), sk.zeros(N, f32, s), sk.zeros(N, i64, s)),
            (1, 2),
            loops_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: // and % of negatives",
            division,
            lambda dev, s: (i32s(s), sk.zeros(N, i64, s), sk.zeros(N, u32, s), d, w, u),
            (1, 2),
            division_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: casts",
            casts,
            lambda dev, s: (_dev(s, af), sk.zeros(N, i32, s), sk.zeros(N, f32, s), sk.zeros(N, i8, s)),
            (1, 2, 3),
            casts_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: mixed int/float promotion",
            promotion,
            lambda dev, s: (_dev(s, af), i32s(s), sk.zeros(N, f32, s), sk.zeros(N, i64, s), sk.zeros(N, f64, s), n_u32),
            (2, 3, 4),
            promotion_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: min/max/abs",
            extremes,
            lambda dev, s: (_dev(s, af), i32s(s), sk.zeros(N, f32, s), sk.zeros(N, i32, s)),
            (2, 3),
            extremes_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: atomics",
            atomics,
            lambda dev, s: (
                i32s(s),
                sk.zeros(8, i32, s),
                _dev(s, np.array([-99], np.int32)),
                sk.zeros(1, i32, s),
                sk.zeros(1, u32, s),
            ),
            (1, 2, 3, 4),
            atomics_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: device helper with a loop and an early return",
            helper_calls,
            lambda dev, s: (sk.zeros(N, i64, s),),
            (0,),
            helper_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: scalar parameters of each dtype",
            scalar_params,
            lambda dev, s: (sk.zeros(N, f64, s), *params),
            (0,),
            scalar_ref,
            N,
            BLOCK,
            rtol=1e-15,
        ),
        simt_program(
            "simt: shadowing and rebinding",
            rebinding,
            lambda dev, s: (i32s(s), sk.zeros(N, i32, s), 4),
            (1,),
            rebinding_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: warp collectives in a partial warp",
            warp_ops,
            lambda dev, s: (_dev(s, whole), i32s(s), sk.zeros(N, f32, s), sk.zeros(N, i32, s)),
            (2, 3),
            warp_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: shared-memory reversal",
            reverse_block,
            lambda dev, s: (_dev(s, af), sk.zeros(N, f32, s)),
            (1,),
            lambda: [af[::-1] * 2],
            N,
            BLOCK,
        ),
        simt_program(
            "simt: shifts past the width and division by -1",
            shifts_and_minus_one,
            lambda dev, s: (_dev(s, edge), sk.zeros(N, i64, s), 31, -1),
            (1,),
            shifts_ref,
            N,
            BLOCK,
        ),
        simt_program(
            "simt: print, assert and math",
            print_math,
            lambda dev, s: (_dev(s, af), sk.zeros(N, f32, s)),
            (1,),
            math_ref,
            N,
            BLOCK,
            rtol=1e-6,
        ),
    ]


PROGRAMS = _programs()


def _simt_refusal(name: str, kernel: Any, make: Any, line_text: str) -> Refusal:
    from safekernels.codegen.pipeline import compile_simt_kernel

    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        kernel.launch(kernel.prepare(simt.LaunchConfig1D.for_len(N, block=BLOCK), device), stream, *make(stream))
        return []

    def assemble(arch: str) -> Any:
        return compile_simt_kernel(kernel, arch="sm_90" if arch == "sm_90a" else arch, use_cache=False)

    return Refusal(name, run, assemble, "SK003", line_text)


REFUSALS = [
    _simt_refusal(
        "simt: a typed int times a float literal",
        int_times_float_literal,
        lambda s: (_dev(s, np.zeros(N, np.int32)), sk.zeros(N, f32, s)),
        "o.set(a[i] * 0.5)",
    ),
    _simt_refusal(
        "simt: u64 with a signed int",
        unsigned_with_signed,
        lambda s: (_dev(s, np.zeros(N, np.int32)), sk.zeros(N, i64, s), 5),
        "o.set(i64(big + a[i]))",
    ),
]
