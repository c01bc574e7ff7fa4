# fresh-expect: clean
# fresh-note: A choir pitch coach shares each reference tensor with .shared(), zips the per-voice cents ops into one run, and retakes a part with a fresh op chained through first/unpartition/then.
"""Choir pitch tracking: cents deviation per voice part against a shared reference, zipped into one run, then a retake."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

FRAMES = 128
LN2 = math.log(2.0)


@tile.kernel
def cents(dev_out: Partition[f32], pitch_hz: Tensor[f32], reference_hz: Tensor[f32]) -> None:
    ratio = tile.load_like(pitch_hz, dev_out) / tile.load_like(reference_hz, dev_out)
    dev_out.store(tile.log(ratio) * (1200.0 / LN2))


@dataclass
class VoicePart:
    name: str
    note_hz: float
    drift_cents: float
    seed: int

    def trace(self, retake: bool = False) -> np.ndarray:
        rng = np.random.default_rng(self.seed + (100 if retake else 0))
        drift = np.linspace(0.0, self.drift_cents * (0.3 if retake else 1.0), FRAMES)
        wobble = 6.0 * rng.standard_normal(FRAMES)
        return (self.note_hz * 2.0 ** ((drift + wobble) / 1200.0)).astype(np.float32)


class PitchCoach:
    def __init__(self, stream: sk.Stream, parts: list[VoicePart]) -> None:
        self.stream = stream
        self.parts = {p.name: p for p in parts}

    def reference(self, part: VoicePart) -> sk.SharedDeviceOp:
        return tile.full((FRAMES,), part.note_hz, f32).shared()

    def rehearse(self) -> dict[str, float]:
        refs = {name: self.reference(part) for name, part in self.parts.items()}
        ops = [cents(tile.zeros((FRAMES,), f32).partition((32,)), tile.from_numpy(p.trace()), refs[name])
               for name, p in self.parts.items()]
        results = sk.zip(*ops).sync_on(self.stream)
        drift = {}
        for name, (dev_part, _pitch, _ref) in zip(self.parts, results):
            tail = dev_part.to_numpy(self.stream)[-FRAMES // 4 :]
            drift[name] = float(tail.mean())
        return drift

    def retake(self, name: str) -> float:
        part = self.parts[name]
        ref = self.reference(part)
        op = cents(tile.zeros((FRAMES,), f32).partition((32,)), tile.from_numpy(part.trace(retake=True)), ref)
        summary = op.first().unpartition().then(lambda t: float(t.to_numpy(self.stream)[-FRAMES // 4 :].mean()))
        return summary.sync_on(self.stream)


def main() -> None:
    coach = PitchCoach(sk.Device.default().new_stream(), [
        VoicePart("soprano", 659.25, -25.0, 1), VoicePart("alto", 440.0, -8.0, 2),
        VoicePart("tenor", 329.63, 12.0, 3), VoicePart("bass", 164.81, -30.0, 4),
    ])
    drift = coach.rehearse()
    print({k: round(v, 1) for k, v in drift.items()})
    flat_parts = sorted((name for name, d in drift.items() if abs(d) > 15.0), key=lambda n: drift[n])
    for name in flat_parts:
        print(f"retake {name}: {drift[name]:+.1f} -> {coach.retake(name):+.1f} cents")


if __name__ == "__main__":
    main()
