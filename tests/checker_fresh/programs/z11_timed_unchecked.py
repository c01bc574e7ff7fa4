# fresh-expect: E0133 at line 35
# the caller's `with simt.unsafe():` does not cover the launch_unchecked inside the timing helper (unsafe is lexical)
"""Micro-benchmark of the raw launch path of a saxpy kernel: a timing helper launches
the kernel without the prepared-launch checks, and the benchmark loop wraps its calls in
an unsafe block after checking the configuration by hand."""
from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 2048
BLOCK = 256


@simt.kernel
@simt.launch_contract(block=BLOCK)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], a: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a * x[i] + y[i])


def timed(kernel: Any, config: simt.LaunchConfig1D, stream: sk.Stream, *args: Any) -> float:
    """Seconds one launch takes, including the stream synchronization."""
    start = time.perf_counter()
    kernel.launch_unchecked(config, stream, *args)
    stream.synchronize()
    return time.perf_counter() - start


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    x = sk.to_device(np.ones(N, np.float32), stream)
    y = sk.to_device(np.arange(N, dtype=np.float32), stream)
    out = sk.zeros(N, f32, stream)
    config = simt.LaunchConfig1D.for_len(N, block=BLOCK)
    assert config.block == BLOCK and config.grid * BLOCK >= N  # the contract, checked by hand

    samples = []
    with simt.unsafe():  # block size and lengths checked above
        for _ in range(5):
            samples.append(timed(saxpy, config, stream, x, y, out, 2.0))

    host = out.to_numpy(stream)
    assert np.allclose(host, 2.0 + np.arange(N))
    print(f"saxpy raw launch: median {statistics.median(samples) * 1e3:.3f} ms over {len(samples)} runs")


if __name__ == "__main__":
    main()
