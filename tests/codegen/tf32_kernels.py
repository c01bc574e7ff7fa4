"""Kernels for the TF32 matmul tests (CI: tests/codegen/test_tf32_matmul.py; H200: test_gpu_tf32_matmul.py).

`tile.matmul(a, b, acc, input_precision="tf32")` on f32 tiles: one-shot shapes the tensor cores tile (32x32
accumulators over 4 warps, K 64), a K loop carrying the accumulator, a shape they cannot tile (8 rows, K 12:
the FMA path with the same rounding), and the default "ieee" twin of the first for the exact FMA path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor
from safekernels.tile.ops import round_to_tf32


@tile.kernel
def tf32_once(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    acc = tile.full((32, 32), 0.25, f32)
    a = x.load((tile.bid(0), 0), (32, 64))
    b = y.load((0, tile.bid(1)), (64, 32))
    z.store(tile.matmul(a, b, acc, input_precision="tf32"))


@tile.kernel
def ieee_once(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    acc = tile.full((32, 32), 0.25, f32)
    a = x.load((tile.bid(0), 0), (32, 64))
    b = y.load((0, tile.bid(1)), (64, 32))
    z.store(tile.matmul(a, b, acc))


@tile.kernel
def tf32_loop(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    acc = tile.zeros((64, 64), f32)
    for k in range(x.shape[1] // 32):
        a = x.load((tile.bid(0), k), (64, 32))
        b = y.load((k, tile.bid(1)), (32, 64))
        acc = tile.matmul(a, b, acc, input_precision="tf32")
    z.store(acc)


@tile.kernel
def tf32_ragged(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    acc = tile.zeros((8, 24), f32)
    a = x.load((tile.bid(0), 0), (8, 12))
    b = y.load((0, tile.bid(1)), (12, 24))
    z.store(tile.matmul(a, b, acc, input_precision="tf32"))


#: A compile-time constant read by `by_constant` (a test switches it: the cache key must follow).
PRECISION = "ieee"


@tile.kernel
def by_constant(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    acc = tile.zeros((32, 32), f32)
    a = x.load((tile.bid(0), 0), (32, 64))
    b = y.load((0, tile.bid(1)), (64, 32))
    z.store(tile.matmul(a, b, acc, input_precision=PRECISION))


#: name -> (kernel, (M, N, K), output tile (BM, BN), the acc's value, whether TF32 rounds the inputs)
CASES: dict[str, tuple[Any, tuple[int, int, int], tuple[int, int], float, bool]] = {
    "tf32_once": (tf32_once, (64, 96, 64), (32, 32), 0.25, True),
    "ieee_once": (ieee_once, (64, 96, 64), (32, 32), 0.25, False),
    "tf32_loop": (tf32_loop, (128, 128, 128), (64, 64), 0.0, True),
    "tf32_ragged": (tf32_ragged, (20, 48, 12), (8, 24), 0.0, True),
}


def inputs(name: str, seed: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """f32 operands whose low mantissa bits matter (TF32 drops 13 of them)."""
    _, (m, n, k), _, _, _ = CASES[name]
    rng = np.random.default_rng(seed)
    return rng.uniform(-2, 2, (m, k)).astype(np.float32), rng.uniform(-2, 2, (k, n)).astype(np.float32)


def run(name: str, device: Any) -> np.ndarray:
    kernel, (m, n, _), (bm, bn), _, _ = CASES[name]
    a, b = inputs(name)
    stream = device.new_stream()
    z, _, _ = kernel(
        tile.zeros((m, n), f32, device=device).partition((bm, bn)),
        tile.from_numpy(a, device=device),
        tile.from_numpy(b, device=device),
    ).sync_on(stream)
    out: np.ndarray = z.unpartition().to_numpy(stream)
    return out


def reference(name: str) -> np.ndarray:
    """numpy's emulation in f64: inputs rounded to TF32 (when opted in), products and sums exact-ish."""
    _, _, _, acc, tf32 = CASES[name]
    a, b = inputs(name)
    if tf32:
        a, b = round_to_tf32(a), round_to_tf32(b)
    out: np.ndarray = a.astype(np.float64) @ b.astype(np.float64) + acc
    return out


def sum_bound(name: str, want: np.ndarray) -> np.ndarray:
    """docs/numerics.md: a K-term f32 sum in another order, `4 * K * 2^-24 * max(|x|, 1)`."""
    _, (_, _, k), _, _, _ = CASES[name]
    bound: np.ndarray = 4 * k * 2.0**-24 * np.maximum(np.abs(want), 1.0)
    return bound
