# fresh-expect: E0308 at line 76
# fresh-note: Hearing-aid multiband compression with three SIMT kernels; bug: the module-level `plan()` cache is keyed by launch length only, so `compress` (same frame count as `frame_level`) gets `frame_level`'s prepared launch at line 76.
"""Hearing aid wide-dynamic-range compression: per-frame level, compression gain, gain applied per sample.

Three SIMT kernels run per frequency band.  Prepared launches are cached by launch length so that bands of
the same length do not prepare again.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
FRAME = 64
RATE = 16_000


@simt.kernel
@simt.launch_contract(block=BLOCK)
def frame_level(samples: Slice[f32], level_db: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    f = idx.get()
    acc = f32(0.0)
    for k in range(FRAME):
        s = samples[f * FRAME + k]
        acc += s * s
    if (out := level_db.get_mut(idx)) is not None:
        out.set(f32(10.0) * math.log10(acc / f32(FRAME) + f32(1e-10)))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def compress(level_db: Slice[f32], gain_db: DisjointSlice[f32], threshold: f32, ratio: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (g := gain_db.get_mut(idx)) is not None:
        over = max(level_db[i] - threshold, f32(0.0))
        g.set(-over * (f32(1.0) - f32(1.0) / ratio))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def apply_gain(samples: Slice[f32], gain_db: Slice[f32], out: DisjointSlice[f32], makeup_db: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(samples[i] * f32(10.0) ** ((gain_db[i // FRAME] + makeup_db) / f32(20.0)))


_PLANS: dict[int, simt.PreparedLaunch] = {}


def plan(kernel: simt.SimtKernel, n: int, device: sk.Device) -> simt.PreparedLaunch:
    if n not in _PLANS:
        _PLANS[n] = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), device)
    return _PLANS[n]


def band_processor(threshold_db: float, ratio: float, device: sk.Device,
                   stream: sk.Stream) -> Callable[[np.ndarray], np.ndarray]:
    def process(band: np.ndarray) -> np.ndarray:
        n, frames = len(band), len(band) // FRAME
        samples = sk.to_device(band.astype(np.float32), stream)
        level = sk.zeros(frames, f32, stream)
        gain = sk.zeros(frames, f32, stream)
        out = sk.zeros(n, f32, stream)
        frame_level.launch(plan(frame_level, frames, device), stream, samples, level)
        compress.launch(plan(compress, frames, device), stream, level, gain, threshold_db, ratio)
        apply_gain.launch(plan(apply_gain, n, device), stream, samples, gain, out, 6.0)
        return out.to_numpy(stream)

    return process


def speech_like(rng: np.random.Generator, seconds: float) -> np.ndarray:
    t = np.arange(int(RATE * seconds)) / RATE
    syllables = 0.5 * (1 + np.sin(2 * np.pi * 4.0 * t)) ** 2
    return syllables * (0.3 * np.sin(2 * np.pi * 220 * t) + 0.05 * rng.normal(size=t.size))


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    signal = speech_like(np.random.default_rng(4), 0.512)
    spectrum = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(signal.size, 1 / RATE)
    bands = {"low": (0, 500), "mid": (500, 2000), "high": (2000, 8000)}
    fitting = {"low": (-30.0, 1.5), "mid": (-35.0, 2.0), "high": (-40.0, 3.0)}  # audiologist's prescription
    for name, (lo, hi) in bands.items():
        band = np.fft.irfft(np.where((freqs >= lo) & (freqs < hi), spectrum, 0), n=signal.size)
        processor = band_processor(*fitting[name], device, stream)
        out = processor(band)
        print(f"{name:>4} band: rms in {np.sqrt((band ** 2).mean()):.4f} -> out {np.sqrt((out ** 2).mean()):.4f}")


if __name__ == "__main__":
    main()
