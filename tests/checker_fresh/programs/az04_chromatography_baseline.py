# fresh-expect: E0499 at line 88
# fresh-note: Splits HPLC chromatograms into baseline and corrected traces written into slots of one arena; slot() rounds the stride down to the alignment, so for 300 points the baseline and corrected views overlap and both are DisjointSlice outputs of one launch.
"""HPLC chromatogram baseline removal for several detector channels at once.

Each channel's baseline is a rolling minimum followed by a rolling mean of that minimum
(a cheap "rolling ball"); the kernel writes the baseline and the corrected trace in one pass.
All per-channel outputs are carved out of one device arena, aligned like the vendor's DAQ buffers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

ALIGN = 64
N_POINTS = 300
HALF_WINDOW = 12


@simt.kernel
@simt.launch_contract(block=64, requires=("len(signal) >= len(baseline)", "len(corrected) >= len(baseline)"))
def baseline_split(signal: Slice[f32], baseline: DisjointSlice[f32], corrected: DisjointSlice[f32],
                   half: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(signal)
    if i >= n:
        return
    lo = max(i - half, 0)
    hi = min(i + half + 1, n)
    floor = signal[i]
    for j in range(lo, hi):
        floor = min(floor, signal[j])
    if (b := baseline.get_mut(idx)) is not None:
        b.set(floor)
    idx2 = thread.index_1d()
    if (c := corrected.get_mut(idx2)) is not None:
        c.set(signal[i] - floor)


@dataclass
class Channel:
    name: str
    wavelength_nm: int
    signal: sk.DeviceBuffer


def slot(arena: sk.DeviceBuffer, k: int, n: int, align: int = ALIGN) -> sk.DeviceBuffer:
    """The k-th n-element slot of the arena, starting on an `align` boundary."""
    start = k * (n // align) * align
    return arena.view(start, start + n)


def synth_chromatogram(rng: np.random.Generator, drift: float) -> np.ndarray:
    t = np.linspace(0.0, 15.0, N_POINTS)
    peaks = sum(h * np.exp(-0.5 * ((t - c) / w) ** 2) for c, h, w in ((3.1, 40, 0.08), (6.4, 75, 0.12), (9.8, 22, 0.1)))
    return (peaks + drift * t + 5.0 * np.sin(t / 4.0) + rng.normal(0, 0.3, N_POINTS)).astype(np.float32)


def peak_table(corrected: np.ndarray, threshold: float = 5.0) -> list[tuple[int, float]]:
    above = corrected > threshold
    edges = np.flatnonzero(np.diff(above.astype(np.int8)))
    peaks = []
    for start, stop in zip(edges[::2], edges[1::2]):
        seg = corrected[start + 1 : stop + 1]
        peaks.append((int(start + 1 + seg.argmax()), float(seg.sum())))
    return peaks


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(254)
    channels = [Channel(f"DAD-{wl}", wl, sk.to_device(synth_chromatogram(rng, d), stream))
                for wl, d in ((214, 1.6), (254, 0.9), (280, 0.4))]
    arena_len = 2 * len(channels) * math.ceil(N_POINTS / ALIGN) * ALIGN
    arena = sk.zeros(arena_len, f32, stream)
    prep = baseline_split.prepare(simt.LaunchConfig1D.for_len(N_POINTS, block=64), dev)

    for k, ch in enumerate(channels):
        base = slot(arena, 2 * k, N_POINTS)
        corr = slot(arena, 2 * k + 1, N_POINTS)
        baseline_split.launch(prep, stream, ch.signal, base, corr, HALF_WINDOW)
        corrected = corr.to_numpy(stream)
        table = peak_table(corrected)
        areas = ", ".join(f"t={i * 15.0 / N_POINTS:.2f}min A={a:.0f}" for i, a in table)
        print(f"{ch.name} ({ch.wavelength_nm} nm): {len(table)} peaks: {areas}")


if __name__ == "__main__":
    main()
