# fresh-expect: W0003 at line 56
# fresh-note: Bird-song classifier on field recordings; `classify` builds the scoring op through a helper method and returns early for silent clips without running it (the runtime's UnusedDeviceOpWarning names the launch line 56 inside `_scores_op`; the checker reports it there too, labelled with the caller's binding at line 59).
"""Score field-recorder clips against per-species band templates; skip silent clips."""
from __future__ import annotations
import functools
from collections import Counter
from dataclasses import dataclass
from typing import Iterator


import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.tile import Partition, Tensor
from safekernels.dtypes import f32

SPECIES = ["wren", "robin", "blackbird", "chiffchaff", "blackcap", "great_tit", "blue_tit", "dunnock",
           "goldcrest", "chaffinch", "song_thrush", "nuthatch", "treecreeper", "jay", "woodpigeon", "owl"]
BANDS = 64


@tile.kernel
def band_scores(out: Partition[f32], spec: Tensor[f32], templates: Tensor[f32]) -> None:
    w = templates.load((0, 0), (16, 64))
    v = tile.reshape(spec.load((0,), (64,)), (1, 64))
    out.store(tile.sum(w * tile.broadcast_to(v, (16, 64)), axis=1))


@dataclass(frozen=True)
class Clip:
    recorder: str
    minute: int
    samples: np.ndarray

    @functools.cached_property
    def band_energy(self) -> np.ndarray:
        frames = self.samples[: len(self.samples) // 256 * 256].reshape(-1, 256)
        power = np.abs(np.fft.rfft(frames, axis=1))[:, 1:BANDS + 1] ** 2
        energy = np.log1p(power.mean(axis=0))
        return (energy / (np.linalg.norm(energy) + 1e-6)).astype(np.float32)

    @property
    def peak_db(self) -> float:
        return float(20 * np.log10(np.abs(self.samples).max() + 1e-9))


class BirdClassifier:
    def __init__(self, stream: sk.Stream, templates: np.ndarray, silence_db: float = -40.0) -> None:
        self.stream = stream
        self.templates = tile.from_numpy(templates).shared()
        self.silence_db = silence_db
        self.skipped = 0

    def _scores_op(self, energy: np.ndarray):
        out = tile.zeros((len(SPECIES),), f32).partition((len(SPECIES),))
        return band_scores(out, tile.from_numpy(energy), self.templates)

    def classify(self, clip: Clip) -> str | None:
        op = self._scores_op(clip.band_energy)
        if clip.peak_db < self.silence_db:
            self.skipped += 1
            return None
        scores, _, _ = op.sync_on(self.stream)
        values = scores.unpartition().to_numpy(self.stream)
        return SPECIES[int(np.argmax(values))]


def make_templates(seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = rng.random((len(SPECIES), BANDS)).astype(np.float32) ** 3
    return t / np.linalg.norm(t, axis=1, keepdims=True)


def field_recordings(templates: np.ndarray, minutes: int, seed: int = 2) -> Iterator[Clip]:
    rng = np.random.default_rng(seed)
    for minute in range(minutes):
        if minute % 4 == 3:        # the recorder logs quiet minutes too
            yield Clip("hedge-01", minute, rng.normal(0, 1e-3, 4096).astype(np.float32))
            continue
        species = rng.integers(len(SPECIES))
        bands = templates[species]
        spectrum = np.zeros(2049, np.complex64)
        spectrum[16:16 + BANDS * 16:16] = bands * 400 * np.exp(2j * np.pi * rng.random(BANDS))
        song = np.fft.irfft(spectrum, n=4096).astype(np.float32)
        yield Clip("hedge-01", minute, song + rng.normal(0, 0.01, 4096).astype(np.float32))


def main() -> None:
    templates = make_templates()
    classifier = BirdClassifier(sk.Device.cpu().new_stream(), templates)
    tally = Counter()
    for clip in field_recordings(templates, minutes=12):
        species = classifier.classify(clip)
        if species is not None:
            tally[species] += 1
    print(f"skipped {classifier.skipped} silent clips; heard: {dict(tally.most_common(5))}")


if __name__ == "__main__":
    main()
