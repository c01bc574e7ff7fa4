# fresh-expect: clean
# fresh-note: multi-lead ECG QRS detector that captures one Pan-Tompkins launch_async per lead into a zipped, replayable graph; the per-lead energy workspaces come from a dict comprehension, so each pending launch writes its own buffer.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FS = 250  # Hz
N = 500  # samples per analysis window (2 s)
LEADS = ("I", "II", "V1", "V5")


@simt.kernel
@simt.launch_contract(block=128)
def pan_tompkins(x: Slice[f32], energy: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := energy.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(12):
            j = i - k
            if 1 <= j < len(x) - 1:
                d = x[j + 1] - x[j - 1]
                acc += d * d
        o.set(acc / f32(12.0))


@dataclass
class Beat:
    lead: str
    sample: int

    @property
    def seconds(self) -> float:
        return self.sample / FS


def detect_peaks(energy: np.ndarray, lead: str) -> list[Beat]:
    threshold = 0.3 * energy.max()
    beats: list[Beat] = []
    for i in range(1, len(energy) - 1):
        if energy[i] > threshold and energy[i] >= energy[i - 1] and energy[i] > energy[i + 1]:
            if not beats or i - beats[-1].sample > FS // 4:
                beats.append(Beat(lead, i))
    return beats


class Monitor:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.raw = {lead: sk.zeros(N, f32, stream) for lead in LEADS}
        self.energy = {lead: sk.zeros(N, f32, stream) for lead in LEADS}
        prepared = pan_tompkins.prepare(simt.LaunchConfig1D.for_len(N, block=128), stream.device)
        ops = [pan_tompkins.launch_async(prepared, self.raw[lead], self.energy[lead]) for lead in LEADS]
        self.graph = sk.zip(*ops).graph_on(stream)

    def analyse(self, window: dict[str, np.ndarray]) -> dict[str, list[Beat]]:
        for lead, samples in window.items():
            self.raw[lead].copy_from_numpy(samples, self.stream)
        self.graph.replay()
        return {lead: detect_peaks(self.energy[lead].to_numpy(self.stream), lead) for lead in LEADS}


def synthetic_window(rng: np.random.Generator, bpm: float, offset: float) -> dict[str, np.ndarray]:
    t = np.arange(N) / FS
    beat_times = np.arange(offset, N / FS, 60.0 / bpm)
    qrs = sum(np.exp(-((t - bt) ** 2) / (2 * 0.012**2)) for bt in beat_times)
    gains = {"I": 0.8, "II": 1.2, "V1": -0.6, "V5": 1.0}
    return {
        lead: (g * qrs + 0.15 * np.sin(2 * np.pi * 0.3 * t) + rng.normal(0, 0.02, N)).astype(np.float32)
        for lead, g in gains.items()
    }


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(2)
    monitor = Monitor(stream)
    rates = []
    for bpm, offset in ((72.0, 0.2), (96.0, 0.1)):
        beats = monitor.analyse(synthetic_window(rng, bpm, offset))
        counts = {lead: len(b) for lead, b in beats.items()}
        expected = len(np.arange(offset, N / FS, 60.0 / bpm))
        assert all(abs(c - expected) <= 1 for c in counts.values()), (counts, expected)
        intervals = np.diff([b.seconds for b in beats["II"]])
        rates.append(60.0 / intervals.mean())
    print("heart rate estimates:", " ".join(f"{r:.0f} bpm" for r in rates))


if __name__ == "__main__":
    main()
