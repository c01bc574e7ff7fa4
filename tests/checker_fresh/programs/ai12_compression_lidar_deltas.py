# fresh-expect: clean
# fresh-note: the range deltas are quantised block by block from a generator and the symbol_histogram launch into the numpy-backed histogram is run with sync_on before the host reads it.
"""Compressing a lidar scan line by line: delta coding, quantisation and a symbol histogram.

Consecutive range samples of each scan line are differenced on the host (a generator yields one line at a time),
the deltas are quantised to 5-bit symbols by a tile kernel, and a second tile kernel counts symbols with atomics
into a numpy-backed histogram used to size the entropy coder's tables.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

LINES = 8
POINTS = 360
TILE = 64
LEVELS = 32
STEP = 0.02


@tile.kernel
def quantize(codes: Partition[i32], x: Tensor[f32], inv_step: f32, offset: f32) -> None:
    q = (tile.load_like(x, codes) * inv_step + (offset + 0.5)).astype(i32)
    codes.store(tile.minimum(tile.maximum(q, 0), LEVELS - 1))


@tile.kernel
def symbol_histogram(codes: Partition[i32], counts: AtomicTensor[i32]) -> None:
    valid = tile.iota(TILE, i32) + tile.bid(0) * TILE < codes.shape[0]
    tile.atomic_add(counts, codes.load(), 1, mask=valid)


def scan_lines(ranges: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    for k, line in enumerate(ranges):
        deltas = np.diff(line, prepend=line[0]).astype(np.float32)
        yield k, deltas


def quantize_scan(stream: sk.Stream, ranges: np.ndarray) -> np.ndarray:
    out = []
    for k, deltas in scan_lines(ranges):
        codes = tile.zeros((len(deltas),), i32).partition((TILE,))
        codes, _x, _s, _o = quantize(codes, tile.from_numpy(deltas), 1.0 / STEP, float(LEVELS // 2)).sync_on(stream)
        out.append(codes.unpartition().to_numpy(stream))
    return np.stack(out)


def bits_per_symbol(counts: np.ndarray) -> float:
    total = max(int(counts.sum()), 1)
    p = counts[counts > 0] / total
    return float(-(p * np.log2(p)).sum())


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(9)
    angles = np.linspace(0.0, 2.0 * np.pi, POINTS, dtype=np.float32)
    ranges = np.stack([5.0 + 0.3 * k + np.sin(3 * angles) + rng.normal(0.0, 0.01, POINTS)
                       for k in range(LINES)]).astype(np.float32)

    codes = quantize_scan(stream, ranges)
    clipped = int(np.sum((codes == 0) | (codes == LEVELS - 1)))
    print(f"{codes.size} deltas quantised, {clipped} at the clip levels")

    counts_np = np.zeros(LEVELS, np.int32)
    counts_buf = sk.as_buffer(counts_np)
    symbol_histogram(tile.from_numpy(codes.ravel()).partition((TILE,)), counts_buf).sync_on(stream)
    assert int(counts_np.sum()) == codes.size
    bps = bits_per_symbol(counts_np)
    print(f"entropy estimate: {bps:.2f} bits/symbol vs 5 raw ({bps / 5.0:.0%} of raw size)")


if __name__ == "__main__":
    main()
