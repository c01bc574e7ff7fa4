# fresh-expect: clean
# fresh-note: loop closure stores the blended grid in the older keyframe and takes the newer keyframe's grid back from the launch, so exporting the map reads only live handles.
"""Elevation submaps for a legged robot's SLAM front end (tile track).

Every keyframe owns a small elevation grid in the robot's local frame.  New depth measurements are fused
into the active keyframe with a running average; when the robot revisits a place, loop closure blends the
revisited keyframe's grid into the older one so the map stays consistent.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = (16, 16)
TILE = (8, 8)
CLOSURE_RADIUS = 0.5


@tile.kernel
def fuse(out: Partition[f32], grid: Tensor[f32], meas: Tensor[f32], w: f32) -> None:
    g = tile.load_like(grid, out)
    m = tile.load_like(meas, out)
    out.store(tile.where(m > 0.0, (g * w + m) / (w + 1.0), g))


@tile.kernel
def blend(out: Partition[f32], a: Tensor[f32], b: Tensor[f32], wa: f32, wb: f32) -> None:
    out.store((tile.load_like(a, out) * wa + tile.load_like(b, out) * wb) / (wa + wb))


@dataclass
class Keyframe:
    kf_id: int
    pose: tuple[float, float]
    grid: Tensor[f32]
    weight: float = 0.0
    merged_into: int | None = None


class SubmapRegistry:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.keyframes: dict[int, Keyframe] = {}
        self._next_id = 0

    def spawn(self, pose: tuple[float, float]) -> Keyframe:
        grid = tile.zeros(CELLS, f32).sync_on(self.stream)
        kf = Keyframe(self._next_id, pose, grid)
        self.keyframes[kf.kf_id] = kf
        self._next_id += 1
        return kf

    def integrate(self, kf: Keyframe, depth: np.ndarray) -> None:
        out = tile.zeros(CELLS, f32).partition(TILE)
        out, _old, _m, _w = fuse(out, kf.grid, tile.from_numpy(depth), kf.weight).sync_on(self.stream)
        kf.grid = out.unpartition()
        kf.weight += 1.0

    def closure_candidates(self) -> list[tuple[Keyframe, Keyframe]]:
        live = [kf for kf in self.keyframes.values() if kf.merged_into is None]
        return [(a, b) for a, b in itertools.combinations(live, 2)
                if math.dist(a.pose, b.pose) < CLOSURE_RADIUS and b.kf_id - a.kf_id > 1]

    def close_loop(self, older: Keyframe, newer: Keyframe) -> None:
        out = tile.zeros(CELLS, f32).partition(TILE)
        out, _a, newer.grid, _wa, _wb = blend(out, older.grid, newer.grid, older.weight, newer.weight).sync_on(self.stream)
        older.grid = out.unpartition()
        older.weight += newer.weight
        newer.merged_into = older.kf_id

    def export_map(self) -> dict[int, np.ndarray]:
        return {kf.kf_id: kf.grid.to_numpy(self.stream) for kf in self.keyframes.values()}


def terrain(pose: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    """A depth-derived elevation patch: a ramp whose offset depends on the pose, with holes."""
    ys, xs = np.mgrid[0:CELLS[0], 0:CELLS[1]]
    patch = 0.05 * xs + 0.02 * ys + 0.1 * pose[0] + 0.01
    patch = patch + rng.normal(0.0, 0.01, CELLS)
    patch[rng.random(CELLS) < 0.1] = 0.0
    return patch.astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    reg = SubmapRegistry(stream)
    route = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.1, 0.2)]  # comes back near the start
    for pose in route:
        kf = reg.spawn(pose)
        for _ in range(3):
            reg.integrate(kf, terrain(pose, rng))
    closures = reg.closure_candidates()
    for older, newer in closures:
        reg.close_loop(older, newer)
    grids = reg.export_map()
    live = [k for k, kf in reg.keyframes.items() if kf.merged_into is None]
    assert len(closures) == 1 and len(live) == len(route) - 1
    print(f"{len(closures)} loop closure(s); {len(live)} live submaps; "
          f"mean elevation {np.mean([grids[k].mean() for k in live]):.3f} m")


if __name__ == "__main__":
    main()
