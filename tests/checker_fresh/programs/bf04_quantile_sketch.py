# fresh-expect: E0308 at line 68
# fresh-known-miss: cli,mypy a hand-written launch cache class keyed by the element count only (`LaunchCache.get(kernel, n)`), reached through a method: the prepared launch it hands back for another kernel is not followed (as other plan caches keyed without the kernel)
# fresh-note: Per-shard histogram sketches are bucketized and merged for quantile queries; the LaunchCache keys prepared launches by element count only, so the merge kernel is launched with the PreparedLaunch cached for `bucketize` (both sized 64).
"""Mergeable histogram sketches for streaming quantiles: SIMT bucketize per shard, then pairwise merges."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BINS = 64
LO, HI = 0.0, 200.0


@simt.kernel
@simt.launch_contract(block=64)
def bucketize(values: Slice[f32], counts: AtomicSlice[u32], lo: f32, width: f32) -> None:
    i = thread.index_1d().get()
    if i < len(values):
        b = int((values[i] - lo) / width)
        counts.fetch_add(max(0, min(b, len(counts) - 1)), u32(1))


@simt.kernel
@simt.launch_contract(block=64)
def merge_counts(a: Slice[u32], b: Slice[u32], out: DisjointSlice[u32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class LaunchCache:
    """Prepared launches, built on first use and reused for every later shard of the same size."""

    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self._cache: dict[object, simt.PreparedLaunch] = {}

    def get(self, kernel: simt.SimtKernel, n: int) -> simt.PreparedLaunch:
        key = n
        if key not in self._cache:
            self._cache[key] = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=64), self.dev)
        return self._cache[key]


def quantile(counts: np.ndarray, q: float) -> float:
    cdf = np.cumsum(counts) / counts.sum()
    return LO + (HI - LO) * (int(np.searchsorted(cdf, q)) + 0.5) / BINS


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    shards = [rng.gamma(4.0, 12.0, 64).clip(0, HI - 1).astype(np.float32) for _ in range(4)]
    cache = LaunchCache(dev)
    width = (HI - LO) / BINS
    acc = sk.zeros(BINS, u32, stream)
    for shard in shards:
        values = sk.to_device(shard, stream)
        part = sk.zeros(BINS, u32, stream)
        bucketize.launch(cache.get(bucketize, len(shard)), stream, values, part, LO, width)
        merged = sk.zeros(BINS, u32, stream)
        merge_counts.launch(cache.get(merge_counts, BINS), stream, acc, part, merged)
        acc = merged
    counts = acc.to_numpy(stream)
    everything = np.concatenate(shards)
    assert int(counts.sum()) == len(everything)
    for q in (0.5, 0.9, 0.99):
        est, exact = quantile(counts, q), float(np.quantile(everything, q))
        assert abs(est - exact) <= 2 * width, (q, est, exact)
        print(f"p{int(q * 100)}: sketch {est:.1f} exact {exact:.1f}")


if __name__ == "__main__":
    main()
