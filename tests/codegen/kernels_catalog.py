"""Kernels that exercise every supported construct, with host inputs and a comparison rule for each.

Shared by `tests/codegen` (each must compile to PTX that nvJitLink assembles for sm_80 and sm_90) and by
`tests/gpu` (the GPU result must match the CPU executor: bit-exact for integer kernels and exact f32
arithmetic,
within a documented ulp bound for `math.*`).  Loaded by path, so it must not import test-only packages.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from safekernels import simt
from safekernels.dtypes import f16, f32, i32, i64, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread, warp

SCALE = 3
BLOCK = 256


@simt.kernel
@simt.launch_contract(block=BLOCK)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def saxpy(alpha: f32, x: Slice[f32], y0: Slice[f32], y: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (out := y.get_mut(idx)) is not None:
        out.set(alpha * x[i] + y0[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def int_ops(a: Slice[i32], b: Slice[i32], c: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    y = b[i]
    v = x // y + (x % y) * SCALE - ((x >> 2) ^ (y << 1)) + (x & 0xFF) - (y | 3) + ~x + x**2 % 1000
    if (out := c.get_mut(idx)) is not None:
        out.set(v)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def i64_minmax(a: Slice[i64], b: Slice[i64], c: DisjointSlice[i64]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    v = max(a[i], b[i]) - min(a[i], -7) + abs(a[i]) + max(1, 2, 3) - (a[i] if a[i] > b[i] else b[i] // 2)
    if (out := c.get_mut(idx)) is not None:
        out.set(v)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def loops(a: Slice[i32], c: DisjointSlice[i32], start: i32, stop: i32, step: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if not i < len(a):
        return
    acc = i32(0)
    for j in range(start, stop, step):
        if j % 5 == 0:
            continue
        acc += j * a[i]
        if acc > 100000:
            break
    for k in range(3):
        acc -= k
    for m in range(10, 0, -3):
        acc += m
    if (out := c.get_mut(idx)) is not None:
        out.set(acc)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def collatz(a: Slice[u32], c: DisjointSlice[u32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    steps = u32(0)
    while x != 1:
        if steps >= 200:
            break
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        steps += 1
    if not (steps < 200 or x == 1) or (steps == 0 and x != 1):
        steps = u32(999)
    if (out := c.get_mut(idx)) is not None:
        out.set(steps)


@simt.device
def clamp(x: f32, lo: f32, hi: f32) -> f32:
    return min(max(x, lo), hi)


@simt.device
def smooth(x: f32) -> f32:
    y = clamp(x, f32(0.0), f32(1.0))
    return y * y * (f32(3.0) - f32(2.0) * y)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def helpers(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(smooth(a[i]) + a[i] % f32(0.75))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def math_funcs(
    x: Slice[f32],
    e: DisjointSlice[f32],
    lg: DisjointSlice[f32],
    s: DisjointSlice[f32],
    t: DisjointSlice[f32],
    q: DisjointSlice[f32],
) -> None:
    i = thread.index_1d().get()
    if i >= len(x):
        return
    v = x[i]
    if (o1 := e.get_mut(thread.index_1d())) is not None:
        o1.set(math.exp(v))
    if (o2 := lg.get_mut(thread.index_1d())) is not None:
        o2.set(math.log(abs(v) + 1.0))
    if (o3 := s.get_mut(thread.index_1d())) is not None:
        o3.set(math.sin(v))
    if (o4 := t.get_mut(thread.index_1d())) is not None:
        o4.set(math.tanh(v))
    if (o5 := q.get_mut(thread.index_1d())) is not None:
        o5.set(math.sqrt(abs(v)))


@simt.kernel
@simt.launch_contract(domain=2, block=(16, 16))
def grid2d(a: Slice[i32], c: DisjointSlice[i32], width: i32) -> None:
    if (idx := thread.index_2d(width)) is not None:
        k = idx.get()
        row = thread.block_idx_y() * thread.block_dim_y() + thread.thread_idx_y()
        col = thread.block_idx_x() * thread.block_dim_x() + thread.thread_idx_x()
        if (out := c.get_mut(idx)) is not None:
            out.set(a[k] * 2 + i32(row) - i32(col))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def block_sum(a: Slice[i32], sums: DisjointSlice[i64]) -> None:
    i = thread.index_1d().get()
    tid = thread.thread_idx_x()
    with simt.unsafe():
        s = simt.shared_array(i64, BLOCK)
        s[tid] = i64(a[i]) if i < len(a) else i64(0)
    thread.sync_threads()
    stride = BLOCK // 2
    while stride > 0:
        if tid < stride:
            with simt.unsafe():
                s[tid] += s[tid + stride]
        thread.sync_threads()
        stride //= 2
    if tid == 0:
        with simt.unsafe():
            sums.get_unchecked_mut(thread.block_idx_x()).set(s[0])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def warp_sums(a: Slice[i32], total: AtomicSlice[i64], lanes: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = a[i] if i < len(a) else i32(0)
    s = warp.reduce_sum(v)
    m = warp.reduce_max(v)
    down = warp.shfl_down(v, 1)
    x = warp.shfl_xor(v, 3)
    if thread.lane_id() == 0:
        total.fetch_add(0, i64(s))
        total.fetch_max(1, i64(m))
    if (out := lanes.get_mut(idx)) is not None:
        out.set(down - x)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def half_storage(x: Slice[f16], y: DisjointSlice[f16]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(x[i] * 2.0 + 1.0)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def logic(a: Slice[i32], b: Slice[f32], c: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    v = a[i]
    r = 0
    if (v > 10 and b[i] < 0.5) or not v % 3 == 0:
        r = 1
    elif v == 7:
        r = 2
    else:
        r = -1
    flag = (v < 0) == (b[i] > 0.25)
    if flag:
        r += 10
    if (out := c.get_mut(idx)) is not None:
        out.set(i32(r) + i32(f32(v) * 0.5) + i32(bool(v & 1)))


@simt.kernel(unchecked_indexing=True, unsafe_acknowledged=True)
@simt.launch_contract(block=BLOCK)
def unchecked_copy(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def out_of_bounds(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i + 1000000])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def read_at(a: Slice[f32], c: DisjointSlice[f32], k: u32) -> None:
    """Every thread reads `a[k]`: the boundary-value probe (k == len(a) - 1 reads, k == len(a) traps)."""
    idx = thread.index_1d()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[k])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def int_divide(a: Slice[i32], b: Slice[i32], c: DisjointSlice[i32]) -> None:
    """`a // b` and `a % b`; a zero divisor must trap on both executors."""
    idx = thread.index_1d()
    i = idx.get()
    if i < len(a) and (out := c.get_mut(idx)) is not None:
        out.set(a[i] // b[i] + a[i] % b[i])


# -- host side of the differential suite ------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """A kernel, how to make its arguments for n elements, which arguments are outputs, and the rule."""

    kernel: Any
    make_args: Callable[[int, np.random.Generator], list[Any]]  # numpy arrays (-> buffers) or scalars
    outputs: tuple[int, ...]
    reference: Callable[[list[Any]], list[np.ndarray]]  # numpy's answer for `outputs`, from the host args
    ulp: int | None = None  # None: bit-exact
    domain: int = 1


def _f32(n: int, rng: np.random.Generator, lo: float = -4.0, hi: float = 4.0) -> np.ndarray:
    return rng.uniform(lo, hi, n).astype(np.float32)


def _i32(n: int, rng: np.random.Generator, lo: int = -(1 << 20), hi: int = 1 << 20) -> np.ndarray:
    return rng.integers(lo, hi, n, dtype=np.int32)


def _nonzero(v: np.ndarray) -> np.ndarray:
    return np.where(v == 0, 7, v).astype(v.dtype)


def _blocks(n: int) -> int:
    return (n + BLOCK - 1) // BLOCK


# -- independent numpy references (what each kernel must compute; never the CPU executor) -------------------------
def _wrapping(fn: Callable[[], np.ndarray]) -> np.ndarray:
    with np.errstate(over="ignore"):
        return fn()


def _ref_int_ops(args: list[Any]) -> list[np.ndarray]:
    x, y = args[0], args[1]

    def compute() -> np.ndarray:
        v = x // y + (x % y) * np.int32(SCALE) - ((x >> 2) ^ (y << 1)) + (x & 0xFF) - (y | 3) + ~x
        return (v + (x * x) % np.int32(1000)).astype(np.int32)

    return [_wrapping(compute)]


def _ref_i64_minmax(args: list[Any]) -> list[np.ndarray]:
    a, b = args[0].astype(np.int64), args[1].astype(np.int64)
    last = np.where(a > b, a, b // 2)
    return [np.maximum(a, b) - np.minimum(a, -7) + np.abs(a) + 3 - last]


def _ref_loops(args: list[Any]) -> list[np.ndarray]:
    a, start, stop, step = args[0].astype(np.int64), args[2], args[3], args[4]
    acc = np.zeros_like(a)
    running = np.ones(a.shape, bool)
    for j in range(start, stop, step):
        if j % 5 == 0:
            continue
        acc = np.where(running, acc + j * a, acc)
        running &= acc <= 100000
    acc += -(0 + 1 + 2) + sum(range(10, 0, -3))
    return [acc.astype(np.int32)]


def _ref_collatz(args: list[Any]) -> list[np.ndarray]:
    x = args[0].astype(np.int64)
    steps = np.zeros_like(x)
    for _ in range(200):
        moving = x != 1
        x = np.where(moving, np.where(x % 2 == 0, x // 2, 3 * x + 1), x)
        steps += moving
    assert (x < 1 << 32).all()  # the u32 kernel never wraps on these inputs
    bad = ~((steps < 200) | (x == 1)) | ((steps == 0) & (x != 1))
    return [np.where(bad, 999, steps).astype(np.uint32)]


def _ref_helpers(args: list[Any]) -> list[np.ndarray]:
    a = args[0]
    y = np.minimum(np.maximum(a, np.float32(0.0)), np.float32(1.0))
    smooth_ = y * y * (np.float32(3.0) - np.float32(2.0) * y)
    return [(smooth_ + np.remainder(a, np.float32(0.75))).astype(np.float32)]


def _ref_math(args: list[Any]) -> list[np.ndarray]:
    v = args[0].astype(np.float64)
    log_arg = (np.abs(args[0]) + np.float32(1.0)).astype(np.float64)  # the f32 sum, then log
    outs = [np.exp(v), np.log(log_arg), np.sin(v), np.tanh(v), np.sqrt(np.abs(v))]
    return [o.astype(np.float32) for o in outs]


def _ref_grid2d(args: list[Any]) -> list[np.ndarray]:
    a, width = args[0], args[2]
    k = np.arange(a.size)
    return [_wrapping(lambda: (a * 2 + (k // width) - (k % width)).astype(np.int32))]


def _ref_block_sum(args: list[Any]) -> list[np.ndarray]:
    a = args[0].astype(np.int64)
    padded = np.zeros(_blocks(a.size) * BLOCK, np.int64)
    padded[: a.size] = a
    return [padded.reshape(-1, BLOCK).sum(axis=1)]


def _ref_warp_sums(args: list[Any]) -> list[np.ndarray]:
    a, total = args[0], args[1]
    n = a.size
    v = np.zeros(_blocks(n) * BLOCK, np.int64)  # every launched thread; lanes past the end hold 0
    v[:n] = a
    lane = np.arange(v.size) % 32
    down = np.where(lane + 1 < 32, np.roll(v, -1), v)
    xor = v[(np.arange(v.size) & ~31) | (lane ^ 3)]
    want_total = total.copy()
    want_total[0] += v.sum()
    want_total[1] = max(int(want_total[1]), int(v.max()))
    return [want_total, (down - xor)[:n].astype(np.int32)]


def _ref_half(args: list[Any]) -> list[np.ndarray]:
    return [(args[0].astype(np.float32) * np.float32(2.0) + np.float32(1.0)).astype(np.float16)]


def _ref_logic(args: list[Any]) -> list[np.ndarray]:
    v, b = args[0], args[1]
    r = np.where(((v > 10) & (b < 0.5)) | (v % 3 != 0), 1, np.where(v == 7, 2, -1))
    r = r + 10 * ((v < 0) == (b > 0.25))
    half = np.trunc(v.astype(np.float32) * np.float32(0.5)).astype(np.int32)
    return [(r + half + ((v & 1) != 0)).astype(np.int32)]


CASES: dict[str, Case] = {
    "vecadd": Case(
        vecadd,
        lambda n, r: [_f32(n, r), _f32(n, r), np.zeros(n, np.float32)],
        (2,),
        lambda a: [a[0] + a[1]],
    ),
    "saxpy": Case(
        saxpy,
        lambda n, r: [2.5, _f32(n, r), _f32(n, r), np.zeros(n, np.float32), n],
        (3,),
        lambda a: [np.float32(a[0]) * a[1] + a[2]],
    ),
    "int_ops": Case(
        int_ops, lambda n, r: [_i32(n, r), _nonzero(_i32(n, r, -100, 100)), np.zeros(n, np.int32)], (2,), _ref_int_ops
    ),
    "i64_minmax": Case(
        i64_minmax,
        lambda n, r: [r.integers(-(1 << 40), 1 << 40, n), r.integers(-50, 50, n), np.zeros(n, np.int64)],
        (2,),
        _ref_i64_minmax,
    ),
    "loops_up": Case(loops, lambda n, r: [_i32(n, r, -9, 9), np.zeros(n, np.int32), -7, 40, 3], (1,), _ref_loops),
    "loops_down": Case(loops, lambda n, r: [_i32(n, r, -9, 9), np.zeros(n, np.int32), 30, -11, -4], (1,), _ref_loops),
    "collatz": Case(
        collatz, lambda n, r: [r.integers(1, 100000, n).astype(np.uint32), np.zeros(n, np.uint32)], (1,), _ref_collatz
    ),
    "helpers": Case(helpers, lambda n, r: [_f32(n, r, -0.5, 1.5), np.zeros(n, np.float32)], (1,), _ref_helpers),
    "math_funcs": Case(
        math_funcs,
        lambda n, r: [_f32(n, r, -8.0, 8.0), *[np.zeros(n, np.float32)] * 5],
        (1, 2, 3, 4, 5),
        _ref_math,
        ulp=4,
    ),
    "grid2d": Case(grid2d, lambda n, r: [_i32(n, r), np.zeros(n, np.int32), 37], (1,), _ref_grid2d, domain=2),
    "block_sum": Case(block_sum, lambda n, r: [_i32(n, r), np.zeros(_blocks(n), np.int64)], (1,), _ref_block_sum),
    "warp_sums": Case(
        warp_sums,
        lambda n, r: [_i32(n, r), np.array([0, -(1 << 40)], np.int64), np.zeros(n, np.int32)],
        (1, 2),
        _ref_warp_sums,
    ),
    "half_storage": Case(
        half_storage, lambda n, r: [_f32(n, r).astype(np.float16), np.zeros(n, np.float16)], (1,), _ref_half
    ),
    "logic": Case(
        logic, lambda n, r: [_i32(n, r, -20, 20), _f32(n, r, 0.0, 1.0), np.zeros(n, np.int32)], (2,), _ref_logic
    ),
    "unchecked_copy": Case(unchecked_copy, lambda n, r: [_f32(n, r), np.zeros(n, np.float32)], (1,), lambda a: [a[0]]),
}

#: every kernel of this module that must compile (the out-of-bounds one compiles too; it traps at run time)
ALL_KERNELS = [
    vecadd,
    saxpy,
    int_ops,
    i64_minmax,
    loops,
    collatz,
    helpers,
    math_funcs,
    grid2d,
    block_sum,
    warp_sums,
    half_storage,
    logic,
    unchecked_copy,
    out_of_bounds,
    read_at,
    int_divide,
]


# -- running a case: poisoned outputs, comparison with the reference --------------------------------------------
def poison_outputs(case: Case, host: list[Any]) -> list[Any]:
    """`host` with every `DisjointSlice` argument filled with a poison value (NaN for floats, 0x5A bytes for ints),
    so an element the kernel never wrote cannot pass for a correct zero.  Accumulators (`AtomicSlice`) keep
    their starting values."""
    poisoned = list(host)
    for i, param in enumerate(case.kernel.params):
        if param.kind != "disjoint":
            continue
        out = np.array(host[i], copy=True)
        if out.dtype.kind == "f":
            out.fill(np.nan)
        else:
            out.view(np.uint8).fill(0x5A)
        poisoned[i] = out
    return poisoned


def max_ulp_diff(a: np.ndarray, b: np.ndarray) -> int:
    """The largest distance in f32 units in the last place between matching elements (NaN counts as huge)."""
    if a.size == 0:
        return 0
    if np.isnan(a).any() or np.isnan(b).any():
        return 1 << 40
    ai = a.astype(np.float32).view(np.int32).astype(np.int64)
    bi = b.astype(np.float32).view(np.int32).astype(np.int64)
    ai = np.where(ai < 0, -(1 << 31) - ai, ai)
    bi = np.where(bi < 0, -(1 << 31) - bi, bi)
    return int(np.max(np.abs(ai - bi)))


def assert_matches(case: Case, got: list[np.ndarray], want: list[np.ndarray], label: str) -> None:
    """Bit-exact (element by element, NaN never equal) or within `case.ulp` per element."""
    assert len(got) == len(want) == len(case.outputs), label
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        where = f"{label}, output #{k}"
        assert g.shape == w.shape and g.dtype == np.asarray(w).dtype, (where, g.dtype, np.asarray(w).dtype)
        if case.ulp is None:
            mismatched = np.flatnonzero(~(g == w))
            assert mismatched.size == 0, (
                f"{where}: {mismatched.size} of {g.size} elements differ, first at {mismatched[:5]}: "
                f"got {g[mismatched[:5]]}, want {np.asarray(w)[mismatched[:5]]}"
            )
        else:
            ulp = max_ulp_diff(g, w)
            assert ulp <= case.ulp, f"{where}: {ulp} ulp apart (allowed {case.ulp})"
