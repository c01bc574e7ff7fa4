"""One kernel per class of CPU/GPU disagreement that independent programs found (the executors now agree on
each); `test_executor_regressions.py` runs them on the CPU and through the GPU compiler,
`test_gpu_executor_regressions.py` on the H200 against the CPU executor.  Each `run_*` takes a device and
returns the outputs as numpy arrays."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import bf16, f16, f32, i32, u32
from safekernels.simt import DisjointSlice, Slice, thread, warp
from safekernels.tile import Partition, Tensor

PARTIAL_BLOCK = 80  # warps of 32, 32 and 16 lanes
N_WARP = 2 * PARTIAL_BLOCK


@simt.kernel
@simt.launch_contract(block=PARTIAL_BLOCK)
def partial_warp(a: Slice[f32], k: Slice[i32], out: DisjointSlice[f32], ints: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = a[i]
    n = k[i]
    s = warp.shfl_down(x, 1) + 10.0 * warp.shfl_up(x, 3) + 100.0 * warp.shfl_xor(x, 5)
    t = warp.shfl_idx(x, 20) + warp.reduce_sum(x) + warp.reduce_max(x) - warp.reduce_min(x)
    m = warp.reduce_sum(n) * 1000 + warp.reduce_max(n) - warp.shfl_down(n, 16)
    if (o := out.get_mut(idx)) is not None:
        o.set(s + t)
    if (q := ints.get_mut(thread.index_1d())) is not None:
        q.set(m)


def partial_warp_reference(a: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What the docs say: an absent source lane gives the lane's own value, reductions combine the lanes
    present (in the butterfly order, absent lanes as 0)."""
    out = np.zeros(N_WARP, np.float32)
    ints = np.zeros(N_WARP, np.int32)
    bases = [blk + w for blk in range(0, N_WARP, PARTIAL_BLOCK) for w in range(0, PARTIAL_BLOCK, 32)]
    for base in bases:
        lanes = min(32, PARTIAL_BLOCK - base % PARTIAL_BLOCK)
        x = a[base : base + lanes]
        n = k[base : base + lanes].astype(np.int64)

        def src(lane: int, j: int, v: np.ndarray, lanes: int = lanes) -> Any:
            return v[j] if 0 <= j < lanes else v[lane]

        def butterfly(v: np.ndarray, fill: Any, op: Any, lanes: int = lanes) -> Any:
            full = [v[j] if j < lanes else fill for j in range(32)]
            for off in (16, 8, 4, 2, 1):
                full = [op(full[j], full[j ^ off]) for j in range(32)]
            return full[0]

        total = butterfly(x, np.float32(0), lambda p, q: np.float32(p + q))
        hi, lo = x.max(), x.min()
        for lane in range(lanes):
            s = (
                src(lane, lane + 1, x)
                + np.float32(10) * src(lane, lane - 3, x)
                + np.float32(100) * src(lane, lane ^ 5, x)
            )
            t = src(lane, 20, x) + total + hi - lo
            out[base + lane] = np.float32(s) + np.float32(t)
            ints[base + lane] = n.sum() * 1000 + n.max() - src(lane, lane + 16, n)
    return out, ints


def run_partial_warp(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    rng = np.random.default_rng(80)
    a = rng.uniform(-2, 2, N_WARP).astype(np.float32)
    k = rng.integers(-50, 50, N_WARP).astype(np.int32)
    out, ints = sk.zeros(N_WARP, f32, stream), sk.zeros(N_WARP, i32, stream)
    prepared = partial_warp.prepare(simt.LaunchConfig1D.for_len(N_WARP, block=PARTIAL_BLOCK), device)
    partial_warp.launch(prepared, stream, sk.to_device(a, stream), sk.to_device(k, stream), out, ints)
    return [out.to_numpy(stream), ints.to_numpy(stream)]


@simt.kernel
@simt.launch_contract(block=64)
def bf16_scalars(x: Slice[bf16], y: DisjointSlice[bf16], s: bf16, h: f16) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(bf16(x[i] * s) + h)


def run_bf16_scalars(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    host = np.linspace(-3, 3, 100).astype(np.float32)
    x = sk.to_device(host, stream, dtype=bf16)
    y = sk.zeros(100, bf16, stream)
    prepared = bf16_scalars.prepare(simt.LaunchConfig1D.for_len(100, block=64), device)
    bf16_scalars.launch(prepared, stream, x, y, 1.7, 0.3)
    return [y.to_numpy(stream)]


@simt.kernel
@simt.launch_contract(block=32)
def typing_rules(h: Slice[f16], k: Slice[i32], w: Slice[u32], o32: DisjointSlice[f32], o16: DisjointSlice[f16],
                 ou: DisjointSlice[u32]) -> None:  # fmt: skip
    idx = thread.index_1d()
    i = idx.get()
    v = h[i] * h[i] + f16(1.0001)  # f16 loads widen: f32 arithmetic, f16(x) rounds and stays f32
    if (o := o32.get_mut(idx)) is not None:
        o.set(k[i] * f32(0.1) + math.exp(h[i]) + v)  # a typed int with an f32 is f32
    if (p := o16.get_mut(thread.index_1d())) is not None:
        p.set(v * f32(3.0))
    if (q := ou.get_mut(thread.index_1d())) is not None:
        q.set(w[i] * u32(3) + u32(4000000000))  # u32 wrap-around is defined


def run_typing_rules(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    h = np.linspace(-1, 2, 32).astype(np.float16)
    k = np.arange(32, dtype=np.int32) * 1000 + 7
    w = np.full(32, 3_000_000_000, np.uint32) + np.arange(32, dtype=np.uint32)
    o32, o16, ou = sk.zeros(32, f32, stream), sk.zeros(32, f16, stream), sk.zeros(32, u32, stream)
    prepared = typing_rules.prepare(simt.LaunchConfig1D.for_len(32, block=32), device)
    typing_rules.launch(prepared, stream, *(sk.to_device(a, stream) for a in (h, k, w)), o32, o16, ou)
    return [o32.to_numpy(stream), o16.to_numpy(stream), ou.to_numpy(stream)]


@simt.device
def reversed_in_block(x: f32) -> f32:
    with simt.unsafe():
        stage = simt.shared_array(f32, 64)
        t = thread.thread_idx_x()
        stage[t] = x
    thread.sync_threads()
    with simt.unsafe():
        out = stage[63 - t]
    thread.sync_threads()  # the next call writes the same array (one per call site)
    return out


@simt.kernel
@simt.launch_contract(block=64)
def helper_shared(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = reversed_in_block(a[i]) + reversed_in_block(a[i] * 2.0)
    if (o := c.get_mut(idx)) is not None:
        o.set(v)


def run_helper_shared(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    a = sk.to_device(np.arange(128, dtype=np.float32), stream)
    c = sk.zeros(128, f32, stream)
    helper_shared.launch(helper_shared.prepare(simt.LaunchConfig1D.for_len(128, block=64), device), stream, a, c)
    return [c.to_numpy(stream)]


@simt.kernel
@simt.launch_contract(block=32)
def narrow_shared(a: Slice[f32], h: DisjointSlice[f32], g: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    t = thread.thread_idx_x()
    with simt.unsafe():
        halves = simt.shared_array(f16, 32)
        brains = simt.shared_array(bf16, 32)
        halves[t] = a[i] * 3.0  # stores round to f16 / bf16
        brains[t] = a[i] * 3.0
    thread.sync_threads()
    with simt.unsafe():
        x = halves[31 - t] * halves[31 - t]  # loads widen: f32 arithmetic
        y = brains[31 - t] * brains[31 - t]
    if (o := h.get_mut(idx)) is not None:
        o.set(x)
    if (p := g.get_mut(thread.index_1d())) is not None:
        p.set(y)


def run_narrow_shared(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    a = sk.to_device(np.linspace(-2, 2, 32).astype(np.float32) + np.float32(1e-3), stream)
    h, g = sk.zeros(32, f32, stream), sk.zeros(32, f32, stream)
    narrow_shared.launch(narrow_shared.prepare(simt.LaunchConfig1D.for_len(32, block=32), device), stream, a, h, g)
    return [h.to_numpy(stream), g.to_numpy(stream)]


@tile.kernel
def matmul_16(z: Partition[f32], a: Tensor[f16], b: Tensor[f16]) -> None:
    acc = tile.zeros((16, 16), f32)
    z.store(tile.matmul(a.load((tile.bid(0), 0), (16, 16)), b.load((0, tile.bid(1)), (16, 16)), acc))


@tile.kernel
def matmul_f32(z: Partition[f32], a: Tensor[f32], b: Tensor[f32]) -> None:
    acc = tile.full((32, 32), 0.5, f32)
    for k in range(a.shape[1] // 16):
        acc = tile.matmul(a.load((tile.bid(0), k), (32, 16)), b.load((k, tile.bid(1)), (16, 32)), acc)
    z.store(acc)


def run_matmuls(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    rng = np.random.default_rng(16)
    a16 = rng.uniform(-1, 1, (32, 16)).astype(np.float16)
    b16 = rng.uniform(-1, 1, (16, 48)).astype(np.float16)
    z16, _, _ = matmul_16(
        tile.zeros((32, 48), f32, device=device).partition((16, 16)),
        tile.from_numpy(a16, device=device),
        tile.from_numpy(b16, device=device),
    ).sync_on(stream)
    a32 = rng.uniform(-1, 1, (64, 48)).astype(np.float32)
    b32 = rng.uniform(-1, 1, (48, 64)).astype(np.float32)
    z32, _, _ = matmul_f32(
        tile.zeros((64, 64), f32, device=device).partition((32, 32)),
        tile.from_numpy(a32, device=device),
        tile.from_numpy(b32, device=device),
    ).sync_on(stream)
    return [z16.unpartition().to_numpy(stream), z32.unpartition().to_numpy(stream)]


@tile.kernel
def where_scalars(z: Partition[f32], c: Partition[i32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, z)
    z.store(tile.where(t > 0.5, 1.0, 0.0))
    c.store(tile.where(t > 0.5, 3, -1))


@tile.kernel
def int_division(z: Partition[i32], q: Partition[i32], x: Tensor[i32], y: Tensor[i32]) -> None:
    a = tile.load_like(x, z)
    b = tile.load_like(y, z)
    z.store(a / b)
    q.store((a.astype(i32) // 1) / 2)


INT_MIN = np.iinfo(np.int32).min
DIVIDENDS = np.array([INT_MIN, INT_MIN, -7, 7, -128, INT_MIN + 1, 5, -5], np.int32)
DIVISORS = np.array([2, -1, 2, -2, -3, -2, 3, -3], np.int32)


def run_tile_scalars(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    x = np.linspace(0, 1, 40).astype(np.float32)
    z, c, _ = where_scalars(
        tile.zeros((40,), f32, device=device).partition((16,)),
        tile.zeros((40,), i32, device=device).partition((16,)),
        tile.from_numpy(x, device=device),
    ).sync_on(stream)
    d, q, _, _ = int_division(
        tile.zeros((8,), i32, device=device).partition((8,)),
        tile.zeros((8,), i32, device=device).partition((8,)),
        tile.from_numpy(DIVIDENDS, device=device),
        tile.from_numpy(DIVISORS, device=device),
    ).sync_on(stream)
    outs = (z, c, d, q)
    return [o.unpartition().to_numpy(stream) for o in outs]


@tile.kernel
def i8_division(z: Partition[Any], x: Tensor[Any], y: Tensor[Any]) -> None:
    z.store(tile.load_like(x, z) / tile.load_like(y, z))


def run_i8_division(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    x = np.array([-128, -128, 127, -127, -128, 100, -100, 1], np.int8)
    y = np.array([-3, 3, -2, 2, 1, -7, 7, -1], np.int8)
    z, _, _ = i8_division(
        tile.zeros((8,), "i8", device=device).partition((8,)),
        tile.from_numpy(x, device=device),
        tile.from_numpy(y, device=device),
    ).sync_on(stream)
    return [z.unpartition().to_numpy(stream)]


CASES = {
    "partial_warp": run_partial_warp,
    "bf16_scalars": run_bf16_scalars,
    "typing_rules": run_typing_rules,
    "helper_shared": run_helper_shared,
    "narrow_shared": run_narrow_shared,
    "matmuls": run_matmuls,
    "tile_scalars": run_tile_scalars,
    "i8_division": run_i8_division,
}
