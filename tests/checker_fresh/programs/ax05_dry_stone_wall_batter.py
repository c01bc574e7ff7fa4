# fresh-expect: E0505 at line 80
# fresh-note: Plans a dry-stone wall's batter inside a contextmanager that keeps a course-load launch_async pending; the planner passes the section's heights buffer into a tile launch, which moves it while the pending SIMT op still borrows it.
"""Dry-stone walling: estimate the load on each course and plan the batter (inward lean) of the wall faces."""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

COURSES = 192
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def course_load(heights: Slice[f32], density: Slice[f32], load: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := load.get_mut(idx)) is not None:
        above = f32(0.0)
        for j in range(i, len(heights)):
            above += heights[j] * density[j]
        o.set(above)


@tile.kernel
def batter(out: Partition[f32], heights: Tensor[f32], ratio: f32) -> None:
    out.store(tile.load_like(heights, out) * ratio)


@dataclass
class WallSection:
    name: str
    heights: sk.DeviceBuffer
    density: sk.DeviceBuffer
    load: sk.DeviceBuffer
    notes: list[str] = field(default_factory=list)

    @staticmethod
    def quarried(name: str, stream: sk.Stream, seed: int) -> "WallSection":
        rng = np.random.default_rng(seed)
        h = rng.uniform(0.08, 0.22, COURSES).astype(np.float32)
        d = rng.uniform(2.3, 2.7, COURSES).astype(np.float32)
        return WallSection(name, sk.to_device(h, stream), sk.to_device(d, stream), sk.zeros(COURSES, f32, stream))


class WallSurveyor:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = course_load.prepare(simt.LaunchConfig1D.for_len(COURSES, block=BLOCK), dev)

    @contextlib.contextmanager
    def survey(self, section: WallSection) -> Iterator[WallSection]:
        pending = course_load.launch_async(self.prepared, section.heights, section.density, section.load)
        try:
            yield section
        finally:
            pending.sync_on(self.stream)
        section.notes.append(f"max course load {section.load.to_numpy(self.stream).max():.2f}")


def _to_tiles(buf: sk.DeviceBuffer, tile_len: int) -> Partition[f32]:
    return buf.partition((tile_len,))


class BatterPlanner:
    def __init__(self, stream: sk.Stream, ratio: float = 1.0 / 6.0) -> None:
        self.stream = stream
        self.ratio = ratio

    def plan(self, heights: sk.DeviceBuffer) -> np.ndarray:
        parts = _to_tiles(sk.zeros(COURSES, f32, self.stream), 64)
        parts, _, _ = batter(parts, heights, self.ratio).sync_on(self.stream)
        return np.cumsum(parts.unpartition().to_numpy(self.stream))


def build(sections: list[WallSection], surveyor: WallSurveyor, planner: BatterPlanner) -> None:
    for section in sections:
        with surveyor.survey(section) as s:
            # plan the face while the load estimate runs on the device
            setback = planner.plan(s.heights)
            s.notes.append(f"top setback {setback[-1]:.3f} m")
        print(section.name, "; ".join(section.notes))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    sections = [WallSection.quarried(name, stream, seed) for seed, name in enumerate(("north", "lane"))]
    build(sections, WallSurveyor(dev, stream), BatterPlanner(stream))


if __name__ == "__main__":
    main()
