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


# -- host side of the differential suite ------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """A kernel, how to make its arguments for n elements, which arguments are outputs, and the rule."""

    kernel: Any
    make_args: Callable[[int, np.random.Generator], list[Any]]  # numpy arrays (-> buffers) or scalars
    outputs: tuple[int, ...]
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


CASES: dict[str, Case] = {
    "vecadd": Case(vecadd, lambda n, r: [_f32(n, r), _f32(n, r), np.zeros(n, np.float32)], (2,)),
    "saxpy": Case(saxpy, lambda n, r: [2.5, _f32(n, r), _f32(n, r), np.zeros(n, np.float32), n], (3,)),
    "int_ops": Case(
        int_ops, lambda n, r: [_i32(n, r), _nonzero(_i32(n, r, -100, 100)), np.zeros(n, np.int32)], (2,)
    ),
    "i64_minmax": Case(
        i64_minmax,
        lambda n, r: [r.integers(-(1 << 40), 1 << 40, n), r.integers(-50, 50, n), np.zeros(n, np.int64)],
        (2,),
    ),
    "loops_up": Case(loops, lambda n, r: [_i32(n, r, -9, 9), np.zeros(n, np.int32), -7, 40, 3], (1,)),
    "loops_down": Case(loops, lambda n, r: [_i32(n, r, -9, 9), np.zeros(n, np.int32), 30, -11, -4], (1,)),
    "collatz": Case(
        collatz, lambda n, r: [r.integers(1, 100000, n).astype(np.uint32), np.zeros(n, np.uint32)], (1,)
    ),
    "helpers": Case(helpers, lambda n, r: [_f32(n, r, -0.5, 1.5), np.zeros(n, np.float32)], (1,)),
    "math_funcs": Case(
        math_funcs,
        lambda n, r: [_f32(n, r, -8.0, 8.0), *[np.zeros(n, np.float32)] * 5],
        (1, 2, 3, 4, 5),
        ulp=4,
    ),
    "grid2d": Case(grid2d, lambda n, r: [_i32(n, r), np.zeros(n, np.int32), 37], (1,), domain=2),
    "block_sum": Case(block_sum, lambda n, r: [_i32(n, r), np.zeros(_blocks(n), np.int64)], (1,)),
    "warp_sums": Case(
        warp_sums,
        lambda n, r: [_i32(n, r), np.array([0, -(1 << 40)], np.int64), np.zeros(n, np.int32)],
        (1, 2),
    ),
    "half_storage": Case(
        half_storage, lambda n, r: [_f32(n, r).astype(np.float16), np.zeros(n, np.float16)], (1,)
    ),
    "logic": Case(
        logic, lambda n, r: [_i32(n, r, -20, 20), _f32(n, r, 0.0, 1.0), np.zeros(n, np.int32)], (2,)
    ),
    "unchecked_copy": Case(unchecked_copy, lambda n, r: [_f32(n, r), np.zeros(n, np.float32)], (1,)),
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
]
