# fresh-expect: E0502 at line 53
# fresh-note: Streaming audio denoiser (generator over chunks) that keeps a sliding analysis frame on the device and shifts it left by one hop before appending each new chunk. Bug: the shift copies `frame[HOP:]` into `frame[:FRAME - HOP]` in place, as numpy's `frame[:-hop] = frame[hop:]` would, but with HOP < FRAME / 2 the two views overlap, so the copy kernel reads and writes the same memory (E0502).
"""A streaming spectral-gate-style denoiser, reduced to its buffering: audio arrives in chunks of HOP samples,
the device keeps the last FRAME samples, and every chunk produces one windowed, gain-scaled frame for the
overlap-add stage downstream.
"""

from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAME = 384
HOP = 128


@simt.kernel
@simt.launch_contract(block=128)
def copy(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := dst.get_mut(idx)) is not None:
        d.set(src[i])


@simt.kernel
@simt.launch_contract(block=128)
def window_gain(frame: Slice[f32], window: Slice[f32], out: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(frame[i] * window[i] * gain)


class StreamingDenoiser:
    def __init__(self, dev: sk.Device, stream: sk.Stream, gain: float = 0.8) -> None:
        self.stream = stream
        self.gain = gain
        self.frame = sk.zeros(FRAME, f32, stream)
        self.window = sk.to_device(np.hanning(FRAME).astype(np.float32), stream)
        self.p_shift = copy.prepare(simt.LaunchConfig1D.for_len(FRAME - HOP, block=128), dev)
        self.p_tail = copy.prepare(simt.LaunchConfig1D.for_len(HOP, block=128), dev)
        self.p_win = window_gain.prepare(simt.LaunchConfig1D.for_len(FRAME, block=128), dev)

    def push(self, chunk: np.ndarray) -> np.ndarray:
        incoming = sk.to_device(chunk.astype(np.float32), self.stream)
        copy.launch(self.p_shift, self.stream, self.frame[HOP:FRAME], self.frame[0 : FRAME - HOP])
        copy.launch(self.p_tail, self.stream, incoming, self.frame[FRAME - HOP : FRAME])
        out = sk.zeros(FRAME, f32, self.stream)
        window_gain.launch(self.p_win, self.stream, self.frame, self.window, out, self.gain)
        return out.to_numpy(self.stream)

    def process(self, chunks: Iterable[np.ndarray]) -> Iterator[np.ndarray]:
        for chunk in chunks:
            if len(chunk) != HOP:
                chunk = np.pad(chunk, (0, HOP - len(chunk)))
            yield self.push(chunk)


def microphone(seconds: float, rate: int = 16000) -> Iterator[np.ndarray]:
    t = np.arange(int(seconds * rate)) / rate
    signal = np.sin(2 * np.pi * 440 * t) + 0.1 * np.random.default_rng(0).standard_normal(t.size)
    for start in range(0, signal.size, HOP):
        yield signal[start : start + HOP]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    denoiser = StreamingDenoiser(dev, stream)
    energies = [float(np.square(frame).mean()) for frame in denoiser.process(microphone(0.05))]
    print(f"{len(energies)} frames, last energy {energies[-1]:.4f}")


if __name__ == "__main__":
    main()
