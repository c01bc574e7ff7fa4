# fresh-expect: E0505 at line 45
# fresh-note: Tumbling windows of request latencies are histogrammed by an async SIMT launch, and the helper that converts the window to milliseconds partitions (moves) the window buffer while the pending histogram op still borrows it.
"""Latency histograms over tumbling windows: SIMT atomic histogram plus a Tile-track unit conversion."""

from __future__ import annotations

from contextlib import contextmanager
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, Slice, thread
from safekernels.tile import Partition

BINS = 8
BIN_US = 250.0
WINDOW = 128


@simt.kernel
@simt.launch_contract(block=64)
def latency_hist(lat_us: Slice[f32], counts: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(lat_us):
        b = min(int(lat_us[i] / BIN_US), BINS - 1)
        counts.fetch_add(b, u32(1))


@tile.kernel
def to_millis(z: Partition[f32]) -> None:
    z.store(z.load() * 0.001)


@contextmanager
def window_scope(index: int, log: list[str]) -> Iterator[None]:
    log.append(f"window {index} open")
    yield
    log.append(f"window {index} closed")


def convert_window(buf: sk.DeviceBuffer, stream: sk.Stream) -> np.ndarray:
    (ms,) = to_millis(buf.partition((32,))).sync_on(stream)
    return ms.unpartition().to_numpy(stream)


def tumbling(events: np.ndarray, size: int) -> Iterator[np.ndarray]:
    for start in range(0, len(events) - size + 1, size):
        yield events[start:start + size]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    events = rng.exponential(400.0, WINDOW * 3).astype(np.float32)
    prep = latency_hist.prepare(simt.LaunchConfig1D.for_len(WINDOW, block=64), dev)
    log: list[str] = []
    p99s: list[float] = []
    for w, chunk in enumerate(tumbling(events, WINDOW)):
        with window_scope(w, log):
            window = sk.to_device(chunk, stream)
            counts = sk.zeros(BINS, u32, stream)
            pending = latency_hist.launch_async(prep, window, counts)
            millis = convert_window(window, stream)
            pending.sync_on(stream)
            hist = counts.to_numpy(stream)
            want = np.bincount(np.minimum((chunk / BIN_US).astype(int), BINS - 1), minlength=BINS)
            np.testing.assert_array_equal(hist, want)
            np.testing.assert_allclose(millis, chunk * np.float32(0.001), rtol=1e-6)
            p99s.append(float(np.quantile(millis, 0.99)))
    print(log[-1], "p99 ms per window:", [round(p, 2) for p in p99s])


if __name__ == "__main__":
    main()
