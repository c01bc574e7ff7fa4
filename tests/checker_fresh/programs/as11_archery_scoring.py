# fresh-expect: W0003 at line 52
# fresh-note: Archery tournament scoring; each end's scoring op is launched before the sighter check, so the `continue` for sighter ends drops a launch_async op that never runs.
"""Ring scores for a recurve round: arrows per end scored on the device, sighters excluded."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ARROWS_PER_END = 6
RING_WIDTH_CM = 6.1      # 122 cm face, ten scoring rings


@simt.kernel
@simt.launch_contract(block=32)
def score_arrows(x: Slice[f32], y: Slice[f32], scores: DisjointSlice[f32], ring: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (s := scores.get_mut(idx)) is not None:
        r = (x[i] * x[i] + y[i] * y[i]) ** 0.5
        ring_no = f32(10.0) - f32(int(r / ring))
        if ring_no < 0.0:
            ring_no = f32(0.0)
        s.set(ring_no)


@dataclass
class End:
    number: int
    x: np.ndarray
    y: np.ndarray
    sighter: bool = False


class Scorecard:
    def __init__(self, archer: str, dev: sk.Device, stream: sk.Stream) -> None:
        self.archer = archer
        self.stream = stream
        self.prepared = score_arrows.prepare(simt.LaunchConfig1D.for_len(ARROWS_PER_END, block=32), dev)
        self.per_end: dict[int, np.ndarray] = {}

    def tally(self, ends: list[End]) -> int:
        pending = []
        for end in ends:
            x = sk.to_device(end.x.astype(np.float32), self.stream)
            y = sk.to_device(end.y.astype(np.float32), self.stream)
            scores = sk.zeros(ARROWS_PER_END, f32, self.stream)
            op = score_arrows.launch_async(self.prepared, x, y, scores, RING_WIDTH_CM)
            if end.sighter:
                continue            # sighters are shot but never count toward the total
            pending.append((end.number, scores, op))
        total = 0
        for number, scores, op in pending:
            op.sync_on(self.stream)
            values = scores.to_numpy(self.stream)
            self.per_end[number] = values
            total += int(values.sum())
        return total

    @property
    def tens(self) -> int:
        return sum(int((v == 10).sum()) for v in self.per_end.values())


def shoot(number: int, rng: np.random.Generator, grouping_cm: float, sighter: bool = False) -> End:
    return End(number, rng.normal(0.0, grouping_cm, ARROWS_PER_END), rng.normal(0.0, grouping_cm, ARROWS_PER_END), sighter)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(70)
    archers = {"Aiko": 5.0, "Bram": 7.5, "Cleo": 6.2}
    standings = []
    for name, grouping in archers.items():
        ends = [shoot(0, rng, grouping * 1.4, sighter=True)] + [shoot(k, rng, grouping) for k in range(1, 7)]
        card = Scorecard(name, dev, stream)
        standings.append((card.tally(ends), card.tens, name))
    for rank, (total, tens, name) in enumerate(sorted(standings, reverse=True), start=1):
        print(f"{rank}. {name:5s} {total:3d} ({tens} tens)")


if __name__ == "__main__":
    main()
