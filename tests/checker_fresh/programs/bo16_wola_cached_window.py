# fresh-expect: clean
# fresh-note: the tile synthesis launch gets a fresh upload of the cached window array, so the launch moves its own copy and the cached SIMT window buffer stays usable for every frame.
"""Weighted overlap-add (WOLA) framing with a sqrt-Hann window at 50% overlap: SIMT analysis windowing,
tile synthesis windowing with a per-frame gain, and overlap-add on the host.  With unit gain the chain
reconstructs the input exactly in the fully overlapped region."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 64
HOP = N // 2


@simt.kernel
@simt.launch_contract(block=64)
def analysis(x: Slice[f32], w: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * w[i])


@tile.kernel
def synthesis(z: Partition[f32], frame: Tensor[f32], w: Tensor[f32], g: f32) -> None:
    z.store(tile.load_like(frame, z) * tile.load_like(w, z) * g)


@functools.lru_cache(maxsize=8)
def window_array(kind: str, n: int) -> np.ndarray:
    if kind != "sqrt-hann":
        raise ValueError(kind)
    k = np.arange(n)
    return np.sqrt(0.5 - 0.5 * np.cos(2 * np.pi * k / n)).astype(np.float32)  # periodic: w**2 sums to 1


@functools.lru_cache(maxsize=8)
def window_buffer(kind: str, n: int, stream: sk.Stream) -> sk.DeviceBuffer:
    return sk.to_device(window_array(kind, n), stream)


class Wola:
    def __init__(self, dev: sk.Device, kind: str = "sqrt-hann") -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.kind = kind
        self.prep = analysis.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.frames_done = 0

    def frames(self, signal: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
        for start in range(0, len(signal) - N + 1, HOP):
            yield start, signal[start : start + N]

    def process_frame(self, chunk: np.ndarray, gain: float) -> np.ndarray:
        x = sk.to_device(chunk, self.stream)
        y = sk.zeros(N, f32, self.stream)
        analysis.launch(self.prep, self.stream, x, window_buffer(self.kind, N, self.stream), y)
        z = tile.zeros((N,), f32).partition((32,))
        z, _frame, _w, _g = synthesis(z, y, tile.from_numpy(window_array(self.kind, N)), gain).sync_on(self.stream)
        self.frames_done += 1
        return z.unpartition().to_numpy(self.stream)

    def run(self, signal: np.ndarray, gain: float = 1.0) -> np.ndarray:
        out = np.zeros_like(signal)
        for start, chunk in self.frames(signal):
            out[start : start + N] += self.process_frame(chunk, gain)
        return out


def main() -> None:
    dev = sk.Device.default()
    wola = Wola(dev)
    rng = np.random.default_rng(11)
    signal = (np.sin(2 * np.pi * np.arange(512) / 37.0) + 0.1 * rng.standard_normal(512)).astype(np.float32)
    out = wola.run(signal)
    inner = slice(N, len(signal) - N)
    err = float(np.max(np.abs(out[inner] - signal[inner])))
    assert err < 1e-5, err
    print(f"wola: {wola.frames_done} frames of {N} at hop {HOP}, reconstruction error {err:.2e}")


if __name__ == "__main__":
    main()
