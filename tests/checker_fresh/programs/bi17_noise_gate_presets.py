# fresh-expect: W0003 at line 62
# fresh-note: Noise gate whose `process` builds the `gate` tile launch op before the open-gate early return, so for the OPEN preset (threshold 0) the op is dropped without ever being run.
"""A noise gate with presets, on the tile track.

The gate zeroes every sample whose magnitude falls below the preset's threshold and applies a make-up gain to
the rest.  Presets come from a small registry; a preset whose threshold is zero is an open gate, for which the
processor reports the input unchanged.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 64


@tile.kernel
def gate(out: Partition[f32], x: Tensor[f32], threshold: f32, makeup: f32) -> None:
    t = tile.load_like(x, out)
    mag = tile.maximum(t, -t)
    out.store(tile.where(mag >= threshold, t * makeup, 0.0))


class Character(enum.Enum):
    TIGHT = "tight"
    GENTLE = "gentle"
    OPEN = "open"


@dataclass(frozen=True)
class Preset:
    character: Character
    threshold: float
    makeup: float = 1.0

    @staticmethod
    def registry() -> dict[Character, Preset]:
        return {
            Character.TIGHT: Preset(Character.TIGHT, 0.3, 1.2),
            Character.GENTLE: Preset(Character.GENTLE, 0.1, 1.05),
            Character.OPEN: Preset(Character.OPEN, 0.0),
        }


class GateProcessor:
    def __init__(self, stream: sk.Stream, preset: Preset) -> None:
        self.stream = stream
        self.preset = preset
        self.processed = 0

    def process(self, clip: np.ndarray) -> np.ndarray:
        n = clip.shape[0]
        out = tile.zeros((n,), f32).partition((TILE,))
        op = gate(out, tile.from_numpy(clip), self.preset.threshold, self.preset.makeup)
        if self.preset.threshold <= 0.0:
            # open gate: nothing is removed, report the clip as it is
            return clip
        out, _x, _thr, _gain = op.sync_on(self.stream)
        self.processed += 1
        return out.unpartition().to_numpy(self.stream)


def reference(clip: np.ndarray, preset: Preset) -> np.ndarray:
    return np.where(np.abs(clip) >= preset.threshold, clip * np.float32(preset.makeup), 0.0).astype(np.float32)


def noisy_clip(n: int, seed: int = 11) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.arange(n, dtype=np.float32)
    burst = (np.sin(0.07 * t) * ((t // 100) % 2 == 0)).astype(np.float32)
    return (burst + 0.05 * rng.standard_normal(n).astype(np.float32)).astype(np.float32)


def main() -> None:
    stream = sk.Device.default().new_stream()
    clip = noisy_clip(640)
    for character, preset in Preset.registry().items():
        proc = GateProcessor(stream, preset)
        got = proc.process(clip)
        np.testing.assert_allclose(got, reference(clip, preset), rtol=1e-5, atol=1e-6)
        kept = float(np.count_nonzero(got)) / got.shape[0]
        print(f"{character.value:>6}: kept {kept:.0%} of samples (kernel runs: {proc.processed})")
    print("noise gate ok")


if __name__ == "__main__":
    main()
