# fresh-expect: E0502 at line 49
# the lru_cache'd workspace(n, stream) returns the same buffer for both stages, so the gain stage reads and writes one buffer
"""Two-stage audio filter: a high-pass (signal minus its low-pass) followed by a gain
stage. Temporary buffers come from a memoized workspace allocator so that repeated calls
on same-sized blocks do not allocate."""
from __future__ import annotations

import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def axpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], a: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a * y[i] + x[i])


@functools.lru_cache(maxsize=8)
def workspace(n: int, stream: sk.Stream) -> sk.DeviceBuffer:
    return sk.zeros(n, f32, stream)


def moving_average(host: np.ndarray, width: int = 9) -> np.ndarray:
    kernel = np.ones(width, np.float32) / width
    return np.convolve(host, kernel, mode="same").astype(np.float32)


def filter_block(host: np.ndarray, gain: float, dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    n = host.size
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
    x = sk.to_device(host, stream)
    low = sk.to_device(moving_average(host), stream)
    zeros = sk.zeros(n, f32, stream)

    highpass = workspace(n, stream)
    axpy.launch(prepared, stream, x, low, highpass, -1.0)      # x - low
    boosted = workspace(n, stream)
    axpy.launch(prepared, stream, zeros, highpass, boosted, gain)
    return boosted.to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    t = np.linspace(0.0, 1.0, 1024, dtype=np.float32)
    for gain in (1.0, 2.0):
        block = (np.sin(2 * np.pi * 5 * t) + 0.2 * np.sin(2 * np.pi * 120 * t)).astype(np.float32)
        out = filter_block(block, gain, dev, stream)
        print(f"gain {gain}: rms {float(np.sqrt((out ** 2).mean())):.4f}")
    print(workspace.cache_info())


if __name__ == "__main__":
    main()
