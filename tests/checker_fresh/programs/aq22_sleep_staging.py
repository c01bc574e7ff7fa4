# fresh-expect: E0499 at line 55
# fresh-note: Sleep-staging epoch band power per EEG channel with asynchronous SIMT launches; bug: `dict.fromkeys(CHANNELS, sk.zeros(...))` gives every channel the same output buffer, so the second `launch_async` at line 55 writes the buffer the first pending op still writes.
"""Polysomnography sleep staging features: per-epoch band power of every EEG channel of a night recording.

For each channel the band-passed signal is reduced to the mean power of each 30-second epoch by a SIMT kernel.
The channels are launched asynchronously and synchronised together; a simple delta/alpha rule then stages
each epoch.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

FS = 32  # Hz after decimation
EPOCH = 30 * FS
CHANNELS = ("F4-M1", "C4-M1", "O2-M1")


@simt.kernel
@simt.launch_contract(block=64, requires=("len(signal) >= len(power) * samples",))
def epoch_power(signal: Slice[f32], power: DisjointSlice[f32], samples: u32) -> None:
    idx = thread.index_1d()
    e = idx.get()
    if (p := power.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(samples):
            v = signal[e * samples + k]
            acc += v * v
        p.set(acc / f32(samples))


def synthetic_night(rng: np.random.Generator, epochs: int) -> dict[str, np.ndarray]:
    t = np.arange(epochs * EPOCH) / FS
    deep = (np.sin(2 * np.pi * t / 5400.0) > 0.3).astype(np.float32)  # ~90-minute cycles
    night = {}
    for offset, channel in enumerate(CHANNELS):
        delta = (40.0 + 10 * offset) * deep * np.sin(2 * np.pi * 1.5 * t)
        alpha = 15.0 * (1.0 - deep) * np.sin(2 * np.pi * 10.0 * t + offset)
        night[channel] = (delta + alpha + rng.normal(0.0, 5.0, t.size)).astype(np.float32)
    return night


def band_powers(night: dict[str, np.ndarray], device: sk.Device, stream: sk.Stream) -> dict[str, np.ndarray]:
    epochs = len(night[CHANNELS[0]]) // EPOCH
    prepared = epoch_power.prepare(simt.LaunchConfig1D.for_len(epochs, block=64), device)
    outputs = dict.fromkeys(CHANNELS, sk.zeros(epochs, f32, stream))
    signals = {ch: sk.to_device(night[ch], stream) for ch in CHANNELS}
    pending = []
    for ch in CHANNELS:
        pending.append(epoch_power.launch_async(prepared, signals[ch], outputs[ch], EPOCH))
    sk.zip(*pending).sync_on(stream)
    return {ch: buf.to_numpy(stream) for ch, buf in outputs.items()}


def stage(powers: dict[str, np.ndarray]) -> list[str]:
    frontal, occipital = powers["F4-M1"], powers["O2-M1"]
    baseline = float(np.percentile(frontal, 10))  # the awake floor
    labels = []
    for f, o in zip(frontal, occipital):
        labels.append("N3" if f > 4.0 * baseline else ("N2" if f + o > 3.0 * baseline else "W/N1"))
    return labels


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    night = synthetic_night(np.random.default_rng(6), epochs=240)  # two hours
    powers = band_powers(night, device, stream)
    labels = stage(powers)
    counts = {s: labels.count(s) for s in ("W/N1", "N2", "N3")}
    print(f"{len(labels)} epochs staged: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"mean frontal power {powers['F4-M1'].mean():.1f} uV^2")


if __name__ == "__main__":
    main()
