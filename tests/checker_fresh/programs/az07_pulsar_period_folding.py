# fresh-expect: E0308 at line 88
# fresh-known-false-alarm: cli,mypy false E0308 at 94 and false E0308 at 97: the later launches use the same swapped prepared launches; the runtime stops at 88
# fresh-note: Dedisperses a filterbank over trial DMs and folds the best series; make_launches returns (dedisperse, fold) prepared launches but the caller unpacks them in the opposite order, so dedisperse is launched with fold's PreparedLaunch.
"""Pulsar search back end: incoherent dedispersion of a filterbank, then folding at the known period.
A small filterbank (channels x time samples) holds a dispersed periodic pulse; each trial DM
shifts the channels by their cold-plasma delay and sums them, and the best time series is
folded into a pulse profile with atomic adds per phase bin.
"""
from __future__ import annotations

import math

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

N_CHAN, N_SAMP = 16, 2048
TSAMP_S = 0.5e-3
F_LO, F_HI = 1200.0, 1500.0
N_BINS = 64
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(fb) >= len(series) * 16",))
def dedisperse(fb: Slice[f32], shifts: Slice[i32], series: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    t = idx.get()
    n = len(series)
    acc = f32(0.0)
    for c in range(len(shifts)):
        s = t + shifts[c]
        if s < n:
            acc += fb[c * n + s]
    if (o := series.get_mut(idx)) is not None:
        o.set(acc)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def fold(series: Slice[f32], profile: AtomicSlice[f32], hits: AtomicSlice[i32], period_samples: f32) -> None:
    t = thread.index_1d().get()
    if t < len(series):
        phase = f32(t) / period_samples
        b = i32((phase - math.floor(phase)) * f32(len(profile)))
        profile.fetch_add(b, series[t])
        hits.fetch_add(b, i32(1))


def channel_shifts(dm: float) -> np.ndarray:
    freqs = np.linspace(F_LO, F_HI, N_CHAN)
    delay_s = 4.148808e3 * dm * (freqs**-2 - F_HI**-2)
    return np.round(delay_s / TSAMP_S).astype(np.int32)


def synthetic_filterbank(rng: np.random.Generator, dm: float, period_s: float) -> np.ndarray:
    fb = rng.normal(0.0, 1.0, (N_CHAN, N_SAMP)).astype(np.float32)
    shifts = channel_shifts(dm)
    pulse_at = np.arange(0, N_SAMP, int(round(period_s / TSAMP_S)))
    for c in range(N_CHAN):
        at = pulse_at + shifts[c]
        fb[c, at[at < N_SAMP]] += 2.5
    return fb


def make_launches(dev: sk.Device) -> tuple[simt.PreparedLaunch, simt.PreparedLaunch]:
    cfg = simt.LaunchConfig1D.for_len(N_SAMP, block=BLOCK)
    return dedisperse.prepare(cfg, dev), fold.prepare(cfg, dev)


def snr(series: np.ndarray) -> float:
    return float((series.max() - np.median(series)) / (series.std() + 1e-9))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    period_s = 0.0893
    fb = sk.to_device(synthetic_filterbank(np.random.default_rng(1919), dm=56.8, period_s=period_s).ravel(), stream)
    fold_launch, dedisp_launch = make_launches(dev)

    series = sk.zeros(N_SAMP, f32, stream)
    best = (0.0, -1.0)
    for dm in (0.0, 30.0, 56.8, 80.0):
        shifts = sk.to_device(channel_shifts(dm), stream)
        dedisperse.launch(dedisp_launch, stream, fb, shifts, series)
        score = snr(series.to_numpy(stream))
        print(f"DM {dm:5.1f} pc/cm^3: S/N {score:5.1f}")
        best = max(best, (score, dm))

    shifts = sk.to_device(channel_shifts(best[1]), stream)
    dedisperse.launch(dedisp_launch, stream, fb, shifts, series)
    profile = sk.zeros(N_BINS, f32, stream)
    hits = sk.zeros(N_BINS, i32, stream)
    fold.launch(fold_launch, stream, series, profile, hits, period_s / TSAMP_S)
    prof = profile.to_numpy(stream) / np.maximum(hits.to_numpy(stream), 1)
    print(f"best DM {best[1]}: profile peak at phase {prof.argmax() / N_BINS:.2f}, duty {np.mean(prof > prof.max() / 2):.2f}")


if __name__ == "__main__":
    main()
