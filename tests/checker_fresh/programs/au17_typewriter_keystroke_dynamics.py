# fresh-expect: E0382 at line 33
# fresh-known-false-alarm: cli,mypy E0382 at line 65 too: the unknown session's property reads the moved intervals as well, which the runtime never reaches once line 33 (from line 64) raises (a cascade of the same bug)
# fresh-note: Keystroke dynamics from an instrumented typewriter; `normalize` moves the interval buffer into the tile z-score launch but keeps only the output, so the `mean_interval` property later reads the moved buffer.
"""Typist identification from key-bar strike intervals of an instrumented typewriter."""
from __future__ import annotations

import statistics

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

STRIKES = 192


@tile.kernel
def zscore(out: Partition[f32], raw: Tensor[f32], mu: f32, inv_sigma: f32) -> None:
    out.store((tile.load_like(raw, out) - mu) * inv_sigma)


class KeystrokeSession:
    def __init__(self, typist: str, intervals_ms: np.ndarray, stream: sk.Stream) -> None:
        self.typist = typist
        self.stream = stream
        self.intervals = sk.to_device(intervals_ms.astype(np.float32), stream)
        self.normalized = None

    @property
    def mean_interval(self) -> float:
        return float(self.intervals.to_numpy(self.stream).mean())

    def normalize(self) -> None:
        host = self.intervals.to_numpy(self.stream)
        mu, sigma = float(host.mean()), float(host.std()) or 1.0
        out = tile.zeros((STRIKES,), f32).partition((64,))
        out, *_ = zscore(out, self.intervals, mu, 1.0 / sigma).sync_on(self.stream)
        self.normalized = out.unpartition()

    def signature(self, bins: int = 6) -> np.ndarray:
        z = self.normalized.to_numpy(self.stream)
        hist, _ = np.histogram(np.clip(z, -3, 3), bins=bins, range=(-3, 3))
        return hist / hist.sum()


def closest(reference: KeystrokeSession, candidates: list[KeystrokeSession]) -> str:
    scores = {c.typist: float(np.abs(c.signature() - reference.signature()).sum()) for c in candidates}
    return min(scores, key=scores.get)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(13)
    enrolled = [
        KeystrokeSession("hemingway", rng.gamma(4.0, 40.0, STRIKES), stream),
        KeystrokeSession("christie", rng.gamma(9.0, 18.0, STRIKES), stream),
    ]
    unknown = KeystrokeSession("unknown", rng.gamma(8.5, 19.0, STRIKES), stream)
    for session in [*enrolled, unknown]:
        session.normalize()
    print("closest typist:", closest(unknown, enrolled))
    tempo = statistics.fmean(s.mean_interval for s in enrolled)
    print(f"enrolled tempo {tempo:.0f} ms, unknown {unknown.mean_interval:.0f} ms")


if __name__ == "__main__":
    main()
