# fresh-expect: W0003 at line 71
# fresh-note: the symbol_histogram launch over the quantised codes is written as a bare statement without sync_on, so the histogram the entropy estimate reads is never filled.
"""Lossy compression front end for a sensor trace: uniform quantisation plus an entropy estimate.

The trace is cut into blocks by a generator; each block is quantised to 6-bit symbols by a tile kernel.  A second
tile kernel counts symbol occurrences with atomics into a host-visible histogram, from which the host estimates the
bits per symbol an entropy coder would need.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

BLOCK = 512
TILE = 128
LEVELS = 64
STEP = 0.05


@tile.kernel
def quantize(codes: Partition[i32], x: Tensor[f32], inv_step: f32, offset: f32) -> None:
    q = (tile.load_like(x, codes) * inv_step + (offset + 0.5)).astype(i32)
    codes.store(tile.minimum(tile.maximum(q, 0), LEVELS - 1))


@tile.kernel
def symbol_histogram(codes: Partition[i32], counts: AtomicTensor[i32]) -> None:
    valid = tile.iota(TILE, i32) + tile.bid(0) * TILE < codes.shape[0]
    tile.atomic_add(counts, codes.load(), 1, mask=valid)


def blocks(signal: np.ndarray, size: int) -> Iterator[tuple[int, np.ndarray]]:
    for start in range(0, len(signal), size):
        yield start, signal[start:start + size]


def quantize_trace(stream: sk.Stream, signal: np.ndarray) -> np.ndarray:
    out = []
    for start, chunk in blocks(signal, BLOCK):
        codes = tile.zeros((len(chunk),), i32).partition((TILE,))
        codes, _x, _s, _o = quantize(codes, tile.from_numpy(chunk), 1.0 / STEP, float(LEVELS // 2)).sync_on(stream)
        out.append(codes.unpartition().to_numpy(stream))
    return np.concatenate(out)


def bits_per_symbol(counts: np.ndarray) -> float:
    total = max(int(counts.sum()), 1)
    p = counts[counts > 0] / total
    return float(-(p * np.log2(p)).sum())


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(4)
    t = np.arange(3000, dtype=np.float32)
    signal = (0.6 * np.sin(t / 50.0) + rng.normal(0.0, 0.1, t.size)).astype(np.float32)

    codes = quantize_trace(stream, signal)
    recon = (codes - LEVELS // 2).astype(np.float32) * STEP
    print(f"{len(codes)} samples, max reconstruction error {np.abs(recon - signal).max():.4f}")

    counts_np = np.zeros(LEVELS, np.int32)
    counts_buf = sk.as_buffer(counts_np)
    symbol_histogram(tile.from_numpy(codes).partition((TILE,)), counts_buf)
    bps = bits_per_symbol(counts_np)
    print(f"entropy estimate: {bps:.2f} bits/symbol vs 6 raw ({bps / 6.0:.0%} of raw size)")


if __name__ == "__main__":
    main()
