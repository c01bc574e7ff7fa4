# fresh-expect: clean
# fresh-note: Rolling mean/variance of order-book mid prices with an autotuned SIMT kernel; the scratch pool is keyed by size and slot, so the two outputs are distinct buffers reused across symbols.
"""Rolling statistics of order-book mid prices for several futures symbols, with a reusable scratch pool."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

WINDOW = 16


@simt.autotune(configs=[64, 128, 256], key=["mids"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def rolling_stats(mids: Slice[f32], mean: DisjointSlice[f32], var: DisjointSlice[f32], window: i32) -> None:
    idx = thread.index_1d()
    idx2 = thread.index_1d()
    i = idx.get()
    if i < len(mids):
        start = max(0, i - window + 1)
        s = f32(0.0)
        s2 = f32(0.0)
        for j in range(start, i + 1):
            x = mids[j]
            s += x
            s2 += x * x
        count = f32(i + 1 - start)
        m = s / count
        if (o := mean.get_mut(idx)) is not None:
            o.set(m)
        if (v := var.get_mut(idx2)) is not None:
            v.set(max(s2 / count - m * m, 0.0))


class ScratchPool:
    """Device buffers reused between symbols, so each tick batch allocates nothing."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._pool: dict[tuple[int, str], sk.DeviceBuffer] = {}

    def take(self, n: int, slot: str) -> sk.DeviceBuffer:
        if (buf := self._pool.get((n, slot))) is None:
            buf = self._pool[n, slot] = sk.zeros(n, f32, self.stream)
        return buf


def synthetic_book(seed: int, ticks: int, tick_size: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    steps = rng.choice([-1, 0, 0, 1], size=ticks) * tick_size
    bid = 4500.0 + np.cumsum(steps)
    ask = bid + tick_size * rng.integers(1, 3, size=ticks)
    return ((bid + ask) / 2.0).astype(np.float32)


FEEDS = {
    "ESZ5": (1, 2048, 0.25),
    "NQZ5": (2, 2048, 0.25),
    "ZNZ5": (3, 8, 0.015625),  # thin overnight session
}


def main() -> None:
    stream = sk.Device.default().new_stream()
    pool = ScratchPool(stream)
    report = {}
    for symbol, (seed, ticks, tick) in FEEDS.items():
        if ticks < 2 * WINDOW:
            print(f"{symbol}: only {ticks} ticks, skipped")
            continue
        mids = sk.to_device(synthetic_book(seed, ticks, tick), stream)
        mean_buf = pool.take(ticks, "mean")
        var_buf = pool.take(ticks, "var")
        rolling_stats.launch(stream, mids, mean_buf, var_buf, WINDOW)
        mean, var = mean_buf.to_numpy(stream), var_buf.to_numpy(stream)
        report[symbol] = (float(mean[-1]), float(np.sqrt(var[WINDOW:]).mean()))
    for symbol, (last_mean, avg_vol) in report.items():
        print(f"{symbol}: rolling mean {last_mean:.3f}, mean rolling stdev {avg_vol:.4f}")


if __name__ == "__main__":
    main()
