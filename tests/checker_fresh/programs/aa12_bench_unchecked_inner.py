# fresh-expect: clean
# look-alike: the unsafe block moved into `timed_launch` itself, around the launch_unchecked call, so the unsafe operation is lexically inside it
"""Micro-benchmark of a "scale and shift" kernel over several block sizes.

The harness skips `prepare` on purpose (it sweeps block shapes the contract does not list) and launches with
`launch_unchecked`, timing each configuration with `time.perf_counter` and keeping the best of a few runs.
"""

from __future__ import annotations

import statistics
import time
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 512


@simt.kernel
@simt.launch_contract(block=256)
def scale_shift(x: Slice[f32], y: DisjointSlice[f32], a: f32, b: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(a * x[i] + b)


@contextmanager
def stopwatch(samples: list[float]) -> Iterator[None]:
    t0 = time.perf_counter()
    try:
        yield
    finally:
        samples.append(time.perf_counter() - t0)


def timed_launch(config: Any, stream: sk.Stream, *args: Any, repeats: int = 3) -> float:
    samples: list[float] = []
    for _ in range(repeats):
        with stopwatch(samples), simt.unsafe():
            scale_shift.launch_unchecked(config, stream, *args)
    return min(samples)


def sweep(blocks: list[int], dev: sk.Device) -> dict[int, float]:
    stream = dev.new_stream()
    x = sk.to_device(np.arange(N, dtype=np.float32), stream)
    y = sk.zeros(N, f32, stream)
    best: dict[int, float] = {}
    for block in blocks:
        config = simt.LaunchConfig1D(grid=-(-N // block), block=block)
        best[block] = timed_launch(config, stream, x, y, 2.0, 1.0)
    assert np.allclose(y.to_numpy(stream), 2.0 * np.arange(N) + 1.0)
    return best


def main() -> None:
    dev = sk.Device.default()
    results = sweep([128, 256], dev)
    median = statistics.median(results.values())
    for block, secs in sorted(results.items()):
        print(f"block {block:4d}: {secs * 1e3:8.3f} ms{'  *' if secs <= median else ''}")


if __name__ == "__main__":
    main()
