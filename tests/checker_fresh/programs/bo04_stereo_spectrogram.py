# fresh-expect: clean
# fresh-note: `analyse` reads the analyser's constants each chunk and stores the handed-back tensors right away, so zipped channel generators always launch with live tensors.
"""Stereo power spectrogram: a Hann-windowed 32-point DFT (16 bins) per frame, computed as two matmuls
against cosine/sine bases, then the inter-channel level difference per bin."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 32  # frame length
BINS = 16  # DFT bins kept (0 .. N/2 - 1)
HOP = 16
FB = 4  # frames per tile block
CHUNK = 8  # frames per launch


@tile.kernel
def power_spectrum(
    spec: Partition[f32], frames: Tensor[f32], window: Tensor[f32], cos_m: Tensor[f32], sin_m: Tensor[f32]
) -> None:
    b = tile.bid(0)
    x = frames.load((b, 0), (FB, N)) * window.load((0, 0), (1, N))
    acc = tile.zeros((FB, BINS), f32)
    re = tile.matmul(x, cos_m.load((0, 0), (N, BINS)), acc)
    im = tile.matmul(x, sin_m.load((0, 0), (N, BINS)), acc)
    spec.store(re * re + im * im)


def frame_chunks(signal: np.ndarray, hop: int, per_chunk: int) -> Iterator[np.ndarray]:
    """Overlapping frames of `signal`, `per_chunk` at a time, as (k, N) arrays."""
    starts = iter(range(0, len(signal) - N + 1, hop))
    while chunk := list(itertools.islice(starts, per_chunk)):
        yield np.stack([signal[s : s + N] for s in chunk]).astype(np.float32)


def dft_bases() -> tuple[np.ndarray, np.ndarray]:
    n = np.arange(N)[:, None]
    k = np.arange(BINS)[None, :]
    phase = 2 * np.pi * n * k / N
    return np.cos(phase).astype(np.float32), (-np.sin(phase)).astype(np.float32)


class Spectrogram:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        cos_np, sin_np = dft_bases()
        hann = np.hanning(N).astype(np.float32)[None, :]
        self.window = tile.from_numpy(hann).sync_on(self.stream)
        self.cos_m = tile.from_numpy(cos_np).sync_on(self.stream)
        self.sin_m = tile.from_numpy(sin_np).sync_on(self.stream)

    @property
    def constants(self) -> tuple[Tensor, Tensor, Tensor]:
        return self.window, self.cos_m, self.sin_m

    @constants.setter
    def constants(self, values: Iterable[Tensor]) -> None:
        self.window, self.cos_m, self.sin_m = values

    def analyse(self, signal: np.ndarray) -> Iterator[np.ndarray]:
        for chunk in frame_chunks(signal, HOP, CHUNK):
            spec = tile.zeros((len(chunk), BINS), f32).partition((FB, BINS))
            spec, _frames, *consts = power_spectrum(spec, tile.from_numpy(chunk), *self.constants).sync_on(self.stream)
            self.constants = consts  # hand the tensors back before yielding to another generator
            yield spec.unpartition().to_numpy(self.stream)

def reference(signal: np.ndarray) -> np.ndarray:
    frames = np.concatenate(list(frame_chunks(signal, HOP, CHUNK)))
    spec = np.fft.rfft(frames * np.hanning(N)[None, :], axis=1)[:, :BINS]
    return np.abs(spec) ** 2


def main() -> None:
    dev = sk.Device.default()
    sg = Spectrogram(dev)
    t = np.arange(400) / 8000.0
    left = np.sin(2 * np.pi * 1000 * t).astype(np.float32)
    right = (0.5 * np.sin(2 * np.pi * 1000 * t) + 0.25 * np.sin(2 * np.pi * 2500 * t)).astype(np.float32)
    rows_l, rows_r = [], []
    for spec_l, spec_r in zip(sg.analyse(left), sg.analyse(right)):
        rows_l.append(spec_l)
        rows_r.append(spec_r)
    got_l, got_r = np.concatenate(rows_l), np.concatenate(rows_r)
    ref_l, ref_r = reference(left), reference(right)
    np.testing.assert_allclose(got_l, ref_l, rtol=1e-3, atol=1e-2)
    np.testing.assert_allclose(got_r, ref_r, rtol=1e-3, atol=1e-2)
    ild = 10 * np.log10((got_l + 1e-6) / (got_r + 1e-6))
    peak_bin = int(np.argmax(ref_l.mean(axis=0)))
    print(f"spectrogram: {ild.shape[0]} frames x {BINS} bins, ILD at bin {peak_bin}: {ild[:, peak_bin].mean():+.2f} dB")


if __name__ == "__main__":
    main()
