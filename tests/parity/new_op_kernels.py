"""Kernels that exercise each issue-13 tile op on fixed data, with ragged edges, for the CPU/GPU comparison in
test_gpu_parity.py (and their CPU run in test_new_op_kernels.py).  `CASES` maps a name to a function that runs
the kernel on a device and returns every output as numpy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from safekernels import tile
from safekernels.dtypes import f16, f32, i32, u32
from safekernels.tile import AtomicTensor, Partition, Tensor

N = 200  # 4 blocks of 64, the last one ragged
RNG = np.random.default_rng(13)
INTS = RNG.integers(-1000, 1000, N).astype(np.int32)
FLOATS = RNG.uniform(-4, 4, N).astype(np.float32)
MATRIX = RNG.uniform(-2, 2, (8, 96)).astype(np.float32)


@tile.kernel
def integer_ops(z: Partition[i32], u: Partition[u32], x: Tensor[i32], k: i32) -> None:
    t = tile.load_like(x, z)
    d = tile.where(t == 0, 1, t % 13 - 6)  # a runtime divisor, never 0
    d = tile.where(d == 0, 7, d)
    z.store((t // d) + (t % d) + (t // -3) + (t % 5) + ((t & 12) | (t ^ 7)) + (t << 3) + (t >> 2) + ~t + (t >> k))
    w = t.astype(u32)
    u.store((w >> 3) + (w % 7) + (w // 5) + (w << 30))


def run_integer_ops(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    z, u, _x, _k = integer_ops(
        tile.zeros((N,), i32, device=device).partition((64,)),
        tile.zeros((N,), u32, device=device).partition((64,)),
        tile.from_numpy(INTS, device=device),
        35,
    ).sync_on(stream)
    return [z.unpartition().to_numpy(stream), u.unpartition().to_numpy(stream)]


@tile.kernel
def scans(z: Partition[f32], idx: Partition[i32], h: Partition[f16], x: Tensor[f32]) -> None:
    t = x.load((tile.bid(0), tile.bid(1)), (4, 32))
    rows = tile.cumsum(t, axis=1) + tile.scan(t, axis=0, op="max") - tile.scan(t, axis=1, op="min")
    z.store(rows)
    where = tile.argmax(t, axis=1, keepdims=True) * 100 + tile.argmin(t, axis=0, keepdims=True)
    idx.store(where + tile.broadcast_to(tile.reshape(tile.argmax(t), (1, 1)), (4, 32)) * 10000)
    h.store(tile.cumsum(t.astype(f16), axis=1))


def run_scans(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    z, idx, h, _x = scans(
        tile.zeros((8, 96), f32, device=device).partition((4, 32)),
        tile.zeros((8, 96), i32, device=device).partition((4, 32)),
        tile.zeros((8, 96), f16, device=device).partition((4, 32)),
        tile.from_numpy(MATRIX, device=device),
    ).sync_on(stream)
    return [a.unpartition().to_numpy(stream) for a in (z, idx, h)]


@tile.kernel
def gather_scatter(z: Partition[f32], x: Tensor[f32], m: Tensor[f32]) -> None:
    i = tile.iota(64, i32) + tile.bid(0) * 64
    g = tile.gather(x, ((i * 7) % 250,), mask=i % 3 != 0, other=-1.0)
    r = tile.reshape(tile.iota(64, i32), (8, 8)) % 8
    h = tile.gather(m, (r, tile.reshape(i, (8, 8)) % 100 - 2), other=0.5)
    tile.scatter(z, (tile.bid(0) * 64 + 63 - tile.iota(64, i32),), g + tile.reshape(h, (64,)), mask=i % 5 != 0)


def run_gather_scatter(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    z, _x, _m = gather_scatter(
        tile.full((N,), 7.0, f32, device=device).partition((64,)),
        tile.from_numpy(FLOATS, device=device),
        tile.from_numpy(MATRIX, device=device),
    ).sync_on(stream)
    return [z.unpartition().to_numpy(stream)]


@tile.kernel
def atomics(
    z: Partition[f32], hist: AtomicTensor[i32], sums: AtomicTensor[f32], hi: AtomicTensor[f32], x: Tensor[i32]
) -> None:
    t = tile.load_like(x, z)
    live = tile.iota(64, i32) + tile.bid(0) * 64 < x.shape[0]  # the ragged block's padding lanes are real lanes
    tile.atomic_add(hist, (t & 15,), 1, mask=live & (t > -500))
    tile.atomic_max(hist, (16 + tile.bid(0),), t)  # padding reads 0: the initial value, harmless here
    tile.atomic_min(hist, (20 + tile.bid(0),), t)
    tile.atomic_add(sums, (tile.bid(0),), tile.where(t > 0, t.astype(f32) * 0.0 + 0.5, 0.25), mask=live)
    tile.atomic_max(hi, (t & 3,), t.astype(f32), mask=live)
    tile.atomic_min(hi, (4 + (t & 3),), t.astype(f32), mask=live)
    z.store(t.astype(f32))


def run_atomics(device: Any) -> list[np.ndarray]:
    stream = device.new_stream()
    _z, hist, sums, hi, _x = atomics(
        tile.zeros((N,), f32, device=device).partition((64,)),
        tile.zeros((24,), i32, device=device),
        tile.zeros((4,), f32, device=device),
        tile.zeros((8,), f32, device=device),
        tile.from_numpy(INTS, device=device),
    ).sync_on(stream)
    return [hist.to_numpy(stream), sums.to_numpy(stream), hi.to_numpy(stream)]


CASES: dict[str, Callable[[Any], list[np.ndarray]]] = {
    "integer_ops": run_integer_ops,
    "scans": run_scans,
    "gather_scatter": run_gather_scatter,
    "atomics": run_atomics,
}
