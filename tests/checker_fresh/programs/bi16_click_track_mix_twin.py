# fresh-expect: clean
# fresh-note: Same click-track mixer, but the cached `click` is a `.shared()` op, which any number of tile launches may read without moving it.
"""Print a metronome click into every stem of a session, on the tile track.

`MixBus.click` is the click track, rendered once on the host and uploaded lazily the first time it is needed
(`functools.cached_property`) as a `.shared()` op, which every launch may read.  `bounce` mixes one stem with the click at a per-stem gain into a fresh output
tensor; the session bounces every stem in turn.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 128
RATE = 8000
BPM = 120


@tile.kernel
def mix2(out: Partition[f32], stem: Tensor[f32], click: Tensor[f32], click_gain: f32) -> None:
    s = tile.load_like(stem, out)
    c = tile.load_like(click, out)
    out.store(s + c * click_gain)


def render_click(n: int) -> np.ndarray:
    click = np.zeros(n, np.float32)
    period = RATE * 60 // BPM // 8
    for start in range(0, n, period):
        burst = np.exp(-np.arange(min(16, n - start), dtype=np.float32) / 4.0)
        click[start : start + burst.shape[0]] = burst
    return click


@dataclass
class Stem:
    name: str
    samples: np.ndarray
    click_gain: float = 0.25
    bounced: np.ndarray | None = field(default=None, repr=False)


class MixBus:
    def __init__(self, stream: sk.Stream, length: int) -> None:
        self.stream = stream
        self.length = length
        self.bounces = 0

    @functools.cached_property
    def click(self) -> sk.SharedDeviceOp:
        # shared: uploaded once, read by every bounce without being moved
        return tile.from_numpy(render_click(self.length)).shared()

    def bounce(self, stem: Stem) -> np.ndarray:
        out = tile.zeros((self.length,), f32).partition((TILE,))
        src = tile.from_numpy(stem.samples)
        out, _src, _click, _gain = mix2(out, src, self.click, stem.click_gain).sync_on(self.stream)
        self.bounces += 1
        return out.unpartition().to_numpy(self.stream)


def session_stems(n: int) -> list[Stem]:
    t = np.arange(n, dtype=np.float32)
    return [
        Stem("guitar", (0.4 * np.sin(0.03 * t)).astype(np.float32)),
        Stem("keys", (0.3 * np.sin(0.011 * t) * np.cos(0.002 * t)).astype(np.float32), click_gain=0.1),
        Stem("bass", (0.5 * np.sin(0.005 * t)).astype(np.float32), click_gain=0.0),
    ]


def main() -> None:
    stream = sk.Device.default().new_stream()
    n = 1000
    bus = MixBus(stream, n)
    click = render_click(n)
    stems = session_stems(n)
    try:
        for stem in stems:
            stem.bounced = bus.bounce(stem)
            np.testing.assert_allclose(stem.bounced, stem.samples + click * stem.click_gain, rtol=1e-5, atol=1e-6)
    finally:
        print(f"bounced {bus.bounces} of {len(stems)} stems")
    for stem in stems:
        assert stem.bounced is not None
        print(f"{stem.name:>7}: peak {float(np.abs(stem.bounced).max()):.3f}")


if __name__ == "__main__":
    main()
