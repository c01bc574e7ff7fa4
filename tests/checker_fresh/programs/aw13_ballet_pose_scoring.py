# fresh-expect: E0133 at line 54
# fresh-note: A ballet pose scorer wraps the call of its _fast_path helper in `with simt.unsafe():`, but the helper's launch_unchecked is not lexically inside an unsafe block; only clips aligned to the block size reach it.
"""Ballet pose scoring: joint-angle deviation from a reference pose, with an unchecked fast path for aligned clips."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=128, requires=("len(angles) == len(deviation)", "len(reference) == len(deviation)"))
def angle_deviation(angles: Slice[f32], reference: Slice[f32], deviation: DisjointSlice[f32], tolerance: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := deviation.get_mut(idx)) is not None:
        d = abs(angles[i] - reference[i])
        o.set(max(d - tolerance, f32(0.0)))


@dataclass
class Clip:
    dancer: str
    position: str
    frames: int
    seed: int


REFERENCE_DEG = {"arabesque": 90.0, "attitude": 75.0, "developpe": 110.0}


class PoseScorer:
    def __init__(self, dev: sk.Device, tolerance: float = 4.0) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.tolerance = tolerance
        self.cache: dict[int, simt.PreparedLaunch] = {}

    def _prepared(self, n: int):
        if n not in self.cache:
            self.cache[n] = angle_deviation.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.dev)
        return self.cache[n]

    def _fast_path(self, angles, reference, out, n: int) -> None:
        # aligned clips: the grid covers the clip exactly, skip the contract re-check
        config = simt.LaunchConfig1D(n // BLOCK, BLOCK)
        angle_deviation.launch_unchecked(config, self.stream, angles, reference, out, self.tolerance)

    def score(self, clip: Clip) -> float:
        rng = np.random.default_rng(clip.seed)
        target = REFERENCE_DEG[clip.position]
        angles = sk.to_device((target + 6.0 * rng.standard_normal(clip.frames)).astype(np.float32), self.stream)
        reference = sk.to_device(np.full(clip.frames, target, np.float32), self.stream)
        out = sk.zeros(clip.frames, f32, self.stream)
        if clip.frames % BLOCK == 0:
            with simt.unsafe():
                self._fast_path(angles, reference, out, clip.frames)
        else:
            angle_deviation.launch(self._prepared(clip.frames), self.stream, angles, reference, out, self.tolerance)
        penalty = float(out.to_numpy(self.stream).mean())
        return max(10.0 - penalty, 0.0)


def main() -> None:
    scorer = PoseScorer(sk.Device.default())
    clips = [Clip("Aurélie", "arabesque", 300, 1), Clip("Misty", "attitude", 250, 2),
             Clip("Svetlana", "developpe", 384, 3)]
    board = sorted(((scorer.score(c), c.dancer, c.position) for c in clips), reverse=True)
    for points, dancer, position in board:
        print(f"{dancer:9s} {position:10s} {points:5.2f}")


if __name__ == "__main__":
    main()
