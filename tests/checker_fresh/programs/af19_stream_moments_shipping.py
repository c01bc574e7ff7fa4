# fresh-expect: E0505 at line 76
# fresh-known-miss: cli,mypy a deque of (partial, op) pairs appended in a loop; the retired pair's buffer is moved with `.to()` before its op runs: items of a deque filled in place are new values
"""Running mean / variance / max of a synthetic data stream, reduced on two devices.

Chunks of the stream are reduced to partial moments on an ingest device while later chunks are
still being uploaded (a small window of launches stays in flight).  Each finished partial is
moved to an aggregation device, where the partials are combined into the final statistics.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import AtomicSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(acc) >= 3",))
def moments(data: Slice[f32], acc: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(data):
        x = data[i]
        acc.fetch_add(0, x)
        acc.fetch_add(1, x * x)
        acc.fetch_max(2, x)


@simt.kernel
@simt.launch_contract(block=32, requires=("len(part) >= 3", "len(total) >= 3"))
def combine(part: Slice[f32], total: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < 2:
        total.fetch_add(i, part[i])
    elif i == 2:
        total.fetch_max(2, part[2])


def chunked(source: np.ndarray, size: int) -> Iterator[np.ndarray]:
    for start in range(0, len(source), size):
        yield source[start : start + size]


class StreamingMoments:
    def __init__(self, ingest: sk.Device, aggregate: sk.Device, window: int = 2) -> None:
        self.ingest, self.aggregate = ingest, aggregate
        self.in_stream, self.agg_stream = ingest.new_stream(), aggregate.new_stream()
        self.window = window
        self.inflight: deque[tuple[sk.DeviceOp, sk.DeviceBuffer]] = deque()
        self.shipped: list[sk.DeviceBuffer] = []
        self.count = 0
        self._launches: dict[int, simt.PreparedLaunch] = {}

    def _launch_for(self, n: int) -> simt.PreparedLaunch:
        if n not in self._launches:
            self._launches[n] = moments.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.ingest)
        return self._launches[n]

    def push(self, chunk: np.ndarray) -> None:
        data = sk.to_device(chunk.astype(np.float32), self.in_stream)
        partial = sk.to_device(np.array([0.0, 0.0, -np.inf], np.float32), self.in_stream)
        self.inflight.append((moments.launch_async(self._launch_for(len(chunk)), data, partial), partial))
        self.count += len(chunk)
        if len(self.inflight) > self.window:
            self._retire()

    def _retire(self) -> None:
        op, partial = self.inflight.popleft()
        self.shipped.append(partial.to(self.aggregate, self.agg_stream))
        op.sync_on(self.in_stream)

    def finish(self) -> tuple[float, float, float]:
        while self.inflight:
            self._retire()
        total = sk.to_device(np.array([0.0, 0.0, -np.inf], np.float32), self.agg_stream)
        prepared = combine.prepare(simt.LaunchConfig1D.for_len(3, block=32), self.aggregate)
        for part in self.shipped:
            combine.launch(prepared, self.agg_stream, part, total)
        s, s2, peak = total.to_numpy(self.agg_stream).astype(np.float64)
        mean = s / self.count
        return mean, s2 / self.count - mean * mean, peak


def main() -> None:
    rng = np.random.default_rng(8)
    signal = (2.0 + 0.5 * rng.standard_normal(5_000)).astype(np.float32)
    reducer = StreamingMoments(sk.Device.cpu(0), sk.Device.cpu(1), window=2)
    for chunk in chunked(signal, 640):
        reducer.push(chunk)
    mean, var, peak = reducer.finish()
    ref = signal.astype(np.float64)
    assert abs(mean - ref.mean()) < 1e-3 and abs(var - ref.var()) < 1e-2 and peak == ref.max()
    print(f"n={reducer.count} mean={mean:.4f} var={var:.4f} max={peak:.4f}")


if __name__ == "__main__":
    main()
