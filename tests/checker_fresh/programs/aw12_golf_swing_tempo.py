# fresh-expect: W0003 at line 65
# fresh-note: A golf tempo analyzer builds each swing phase's tile op and only afterwards skips phases that are too short with `continue`, dropping that op unrun.
"""Golf swing tempo: per-phase club-head acceleration magnitude from a wrist IMU, reduced to a tempo ratio."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

RATE_HZ = 400
MIN_FRAMES = 48


@tile.kernel
def magnitude(z: Partition[f32], ax: Tensor[f32], ay: Tensor[f32]) -> None:
    x = tile.load_like(ax, z)
    y = tile.load_like(ay, z)
    z.store(tile.sqrt(x * x + y * y))


@dataclass(frozen=True)
class Phase:
    name: str
    start: int
    stop: int

    @property
    def frames(self) -> int:
        return self.stop - self.start


class SwingSession:
    def __init__(self, golfer: str, seed: int) -> None:
        self.golfer = golfer
        rng = np.random.default_rng(seed)
        t = np.arange(RATE_HZ * 2, dtype=np.float32) / RATE_HZ
        self.ax = (np.sin(3.0 * t) * 4.0 + rng.standard_normal(t.size)).astype(np.float32)
        self.ay = (np.cos(2.0 * t) * 9.0 + rng.standard_normal(t.size)).astype(np.float32)

    def phases(self) -> Iterator[Phase]:
        marks = {"address": 0, "takeaway": 120, "top": 420, "impact": 520, "follow": 560, "finish": 800}
        names = list(marks)
        for here, there in zip(names, names[1:]):
            yield Phase(here, marks[here], marks[there])


class TempoAnalyzer:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.energy: dict[str, float] = {}

    def phase_inputs(self, session: SwingSession, phase: Phase) -> tuple[sk.DeviceOp, sk.DeviceOp, sk.DeviceOp]:
        out = tile.zeros((phase.frames,), f32).partition((16,))
        window = slice(phase.start, phase.stop)
        return out, tile.from_numpy(session.ax[window]), tile.from_numpy(session.ay[window])

    def analyse(self, session: SwingSession) -> float:
        for phase in session.phases():
            op = magnitude(*self.phase_inputs(session, phase))
            if phase.frames < MIN_FRAMES:
                print(f"{session.golfer}: {phase.name} too short ({phase.frames} frames), not scored")
                continue
            mag, _ax, _ay = op.sync_on(self.stream)
            self.energy[phase.name] = float(mag.unpartition().to_numpy(self.stream).mean())
        backswing = self.energy.get("takeaway", 0.0) + self.energy.get("top", 0.0)
        downswing = self.energy.get("impact", 0.0) or 1.0
        return backswing / downswing


def main() -> None:
    analyzer = TempoAnalyzer(sk.Device.default().new_stream())
    for golfer, seed in (("Hale", 11), ("Ochoa", 12)):
        ratio = analyzer.analyse(SwingSession(golfer, seed))
        print(f"{golfer}: tempo ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
