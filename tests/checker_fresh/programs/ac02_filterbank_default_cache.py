# fresh-expect: E0502 at line 52
# idiom: a memoizing helper keeping buffers in a mutable default dict keyed by length only (role ignored)
"""A tiny audio filter bank: each band smooths the signal a different number of times.

Device scratch buffers are expensive to allocate per band, so `scratch()` memoizes them in
its default-argument dict.  The `role` argument documents what the caller uses the buffer for.
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLE_RATE = 8000
FRAMES = 1024
BANDS = {"low": 4, "mid": 2, "high": 1}


@simt.kernel
@simt.launch_contract(block=256, requires=("len(src) >= n", "len(dst) >= n"))
def smooth3(src: Slice[f32], dst: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (o := dst.get_mut(idx)) is not None:
        left = src[i - 1] if i > 0 else src[i]
        right = src[i + 1] if i + 1 < n else src[i]
        o.set(0.25 * left + 0.5 * src[i] + 0.25 * right)


def scratch(length: int, stream: sk.Stream, role: str = "tmp", _pool: dict = {}) -> sk.DeviceBuffer:
    if length not in _pool:
        _pool[length] = sk.zeros(length, f32, stream)
    return _pool[length]


def tone(freqs: list[float]) -> np.ndarray:
    t = np.arange(FRAMES, dtype=np.float32) / SAMPLE_RATE
    return sum(np.sin(2 * math.pi * f * t) for f in freqs).astype(np.float32)


def run_band(passes: int, signal: np.ndarray, prepared, stream: sk.Stream) -> float:
    src = scratch(len(signal), stream, role="input")
    src.copy_from_numpy(signal, stream)
    dst = scratch(len(signal), stream, role="output")
    for _ in range(passes):
        smooth3.launch(prepared, stream, src, dst, len(signal))
        src, dst = dst, src
    out = src.to_numpy(stream)
    return float(np.sqrt(np.mean(out * out)))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prepared = smooth3.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=256), dev)
    signal = tone([110.0, 880.0, 3100.0])
    energy = {name: run_band(passes, signal, prepared, stream) for name, passes in BANDS.items()}
    for name, rms in energy.items():
        print(f"{name:>5}: rms {rms:.4f}")


if __name__ == "__main__":
    main()
