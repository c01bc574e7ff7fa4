# fresh-expect: E0382 at line 63
# fresh-note: Tile envelope follower whose `envelopes()` generator moves each stem into `rectify_smooth` and only rebinds the loop name to the handed-back tensor, so `peak_report` later calls `to_numpy` on the moved tensor still stored in `self.stems`.
"""Envelope followers for a multitrack session, in the tile track.
Each stem is a device tensor.  `EnvelopeFollower.envelopes()` is a generator that rectifies and smooths one stem
per step (a tile kernel per stem) and yields the envelope; afterwards `peak_report()` reads the stems again to
compare their raw peaks with the envelope peaks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 64


@tile.kernel
def rectify_smooth(env: Partition[f32], audio: Tensor[f32], attack: f32) -> None:
    t = tile.load_like(audio, env)
    mag = tile.maximum(t, -t)
    peak = tile.max(mag)
    env.store(mag * attack + peak * (1.0 - attack))


@dataclass
class Envelope:
    name: str
    values: np.ndarray

    @property
    def peak(self) -> float:
        return float(self.values.max())


def reference(x: np.ndarray, attack: float) -> np.ndarray:
    mag = np.abs(x).reshape(-1, TILE)
    return (mag * attack + mag.max(axis=1, keepdims=True) * (1.0 - attack)).reshape(-1)


class EnvelopeFollower:
    def __init__(self, stream: sk.Stream, stems: dict[str, np.ndarray], attack: float = 0.3) -> None:
        self.stream = stream
        self.attack = attack
        self.length = next(iter(stems.values())).shape[0]
        self.stems = {name: tile.from_numpy(x).sync_on(stream) for name, x in stems.items()}

    def envelopes(self) -> Iterator[Envelope]:
        for name, stem in self.stems.items():
            env = tile.zeros((self.length,), f32).partition((TILE,))
            env, stem, _ = rectify_smooth(env, stem, self.attack).sync_on(self.stream)
            yield Envelope(name, env.unpartition().to_numpy(self.stream))

    def peak_report(self, envs: list[Envelope]) -> dict[str, tuple[float, float]]:
        report = {}
        for env in envs:
            raw = self.stems[env.name].to_numpy(self.stream)
            report[env.name] = (float(np.abs(raw).max()), env.peak)
        return report


def synth_stems(n: int) -> dict[str, np.ndarray]:
    t = np.arange(n, dtype=np.float32)
    return {
        "kick": (np.sin(0.2 * t) * np.exp(-0.01 * (t % 128))).astype(np.float32),
        "vocals": (0.6 * np.sin(0.05 * t) * np.sin(0.002 * t)).astype(np.float32),
        "bass": (0.8 * np.sign(np.sin(0.01 * t))).astype(np.float32),
    }


def main() -> None:
    stream = sk.Device.default().new_stream()
    stems = synth_stems(512)
    follower = EnvelopeFollower(stream, stems)
    envs = []
    for env in follower.envelopes():
        np.testing.assert_allclose(env.values, reference(stems[env.name], 0.3), rtol=1e-5, atol=1e-6)
        envs.append(env)
    for name, (raw_peak, env_peak) in follower.peak_report(envs).items():
        print(f"{name:>7}: raw peak {raw_peak:.3f}, envelope peak {env_peak:.3f}")
        assert abs(raw_peak - env_peak) < 1e-5
    print("envelopes ok")


if __name__ == "__main__":
    main()
