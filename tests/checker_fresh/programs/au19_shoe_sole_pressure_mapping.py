# fresh-expect: E0502 at line 50
# fresh-note: Shoe sole pressure mapping with repeated smoothing passes; the pass loop reads `bufs[(p - 1) % 2]` and writes `bufs[(p + 1) % 2]`, which is the same buffer from the second pass on.
"""Plantar pressure maps from an insole sensor grid, smoothed for gait reports."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

ROWS, COLS = 12, 8
N = ROWS * COLS


@simt.kernel
@simt.launch_contract(block=32)
def smooth_rows(src: Slice[f32], dst: DisjointSlice[f32], cols: i32, w: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    c = i % cols
    left = i - 1 if c > 0 else i
    right = i + 1 if c < cols - 1 else i
    if (d := dst.get_mut(idx)) is not None:
        d.set((f32(1.0) - f32(2.0) * w) * src[i] + w * (src[left] + src[right]))


class Frame(NamedTuple):
    foot: str
    phase: str
    kpa: np.ndarray


class PressureMapper:
    def __init__(self, dev: sk.Device, stream: sk.Stream, passes: int = 3) -> None:
        self.stream = stream
        self.passes = passes
        self.prepared = smooth_rows.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
        self.bufs = [sk.zeros(N, f32, stream), sk.zeros(N, f32, stream)]

    def smooth(self, raw: sk.DeviceBuffer) -> np.ndarray:
        last = raw
        for p in range(self.passes):
            src = raw if p == 0 else self.bufs[(p - 1) % 2]
            dst = self.bufs[(p + 1) % 2]
            smooth_rows.launch(self.prepared, self.stream, src, dst, COLS, 0.2)
            last = dst
        return last.to_numpy(self.stream).reshape(ROWS, COLS)


def hotspots(grid: np.ndarray, limit: float) -> list[tuple[int, int]]:
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(grid > limit))]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(19)
    frames = [
        Frame(foot, phase, rng.gamma(2.0, 40.0 if phase == "push-off" else 25.0, N).astype(np.float32))
        for foot in ("left", "right") for phase in ("heel-strike", "push-off")
    ]
    mapper = PressureMapper(dev, stream)
    for frame in frames:
        grid = mapper.smooth(sk.to_device(frame.kpa, stream))
        spots = hotspots(grid, limit=120.0)
        print(f"{frame.foot:>5} {frame.phase:<11} peak {grid.max():6.1f} kPa, hotspots {spots[:3]}")


if __name__ == "__main__":
    main()
