# fresh-expect: E0502 at line 103
# fresh-note: the scratch pool keys its buffers by (length, dtype) only, so the "hits" staging buffer and the "posterior" output come back as the same device buffer and the update reads and writes it in one launch.
"""2-D occupancy grid mapping from planar lidar scans (log-odds Bayes filter).

The host ray-casts each scan into per-cell hit and miss counts; one SIMT kernel then applies the inverse
sensor model to every cell.  Temporary device buffers come from a small scratch pool so that the mapper
does not allocate on every scan at 10 Hz.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

GRID = 32
RESOLUTION = 0.25  # metres per cell
N_CELLS = GRID * GRID


@simt.kernel
@simt.launch_contract(block=256)
def log_odds_update(prior: Slice[f32], hits: Slice[f32], misses: Slice[f32], post: DisjointSlice[f32],
                    l_occ: f32, l_free: f32, l_max: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := post.get_mut(idx)) is not None:
        v = prior[i] + hits[i] * l_occ + misses[i] * l_free
        cell.set(max(-l_max, min(l_max, v)))


@dataclass
class SensorModel:
    p_hit: float = 0.7
    p_miss: float = 0.4
    clamp: float = 5.0

    @property
    def l_occ(self) -> float:
        return math.log(self.p_hit / (1.0 - self.p_hit))

    @property
    def l_free(self) -> float:
        return math.log(self.p_miss / (1.0 - self.p_miss))


@dataclass
class ScratchPool:
    stream: sk.Stream
    _cache: dict[tuple[int, str], sk.DeviceBuffer] = field(default_factory=dict)

    def get(self, tag: str, n: int) -> sk.DeviceBuffer:
        key = (n, "f32")
        if key not in self._cache:
            self._cache[key] = sk.zeros(n, f32, self.stream)
        return self._cache[key]

    def put(self, tag: str, buf: sk.DeviceBuffer) -> None:
        self._cache[(len(buf), "f32")] = buf


def raycast(pose: tuple[float, float, float], ranges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell hit and miss counts of one scan taken at `pose` (x, y, heading)."""
    x0, y0, th = pose
    angles = th + np.linspace(-math.pi, math.pi, len(ranges), endpoint=False)
    hits = np.zeros(N_CELLS, np.float32)
    misses = np.zeros(N_CELLS, np.float32)
    for a, r in zip(angles, ranges):
        steps = np.arange(0.0, r, RESOLUTION * 0.5)
        free = np.stack([x0 + steps * math.cos(a), y0 + steps * math.sin(a)], axis=1)
        cells = np.unique((free / RESOLUTION).astype(int), axis=0)
        cells = cells[((cells >= 0) & (cells < GRID)).all(axis=1)]
        np.add.at(misses, cells[:, 1] * GRID + cells[:, 0], 1.0)
        hx, hy = int((x0 + r * math.cos(a)) / RESOLUTION), int((y0 + r * math.sin(a)) / RESOLUTION)
        if 0 <= hx < GRID and 0 <= hy < GRID:
            hits[hy * GRID + hx] += 1.0
            misses[hy * GRID + hx] = max(0.0, misses[hy * GRID + hx] - 1.0)
    return hits, misses


class OccupancyMapper:
    def __init__(self, model: SensorModel, dev: sk.Device, stream: sk.Stream) -> None:
        self.model = model
        self.stream = stream
        self.pool = ScratchPool(stream)
        self.grid = sk.zeros(N_CELLS, f32, stream)
        self.prepared = log_odds_update.prepare(simt.LaunchConfig1D.for_len(N_CELLS, block=256), dev)

    def integrate(self, pose: tuple[float, float, float], ranges: np.ndarray) -> None:
        hit_np, miss_np = raycast(pose, ranges)
        hits = self.pool.get("hits", N_CELLS)
        hits.copy_from_numpy(hit_np, self.stream)
        misses = self.pool.get("misses", N_CELLS)
        misses.copy_from_numpy(miss_np, self.stream)
        post = self.pool.get("posterior", N_CELLS)
        m = self.model
        log_odds_update.launch(self.prepared, self.stream, self.grid, hits, misses, post, m.l_occ, m.l_free, m.clamp)
        self.grid, post = post, self.grid
        self.pool.put("posterior", post)

    def probabilities(self) -> np.ndarray:
        lo = self.grid.to_numpy(self.stream).reshape(GRID, GRID)
        return 1.0 / (1.0 + np.exp(-lo))


def box_room_scan(pose: tuple[float, float, float], beams: int = 48) -> np.ndarray:
    """Ranges to the walls of a 7 m x 7 m room seen from `pose`."""
    x0, y0, th = pose
    out = np.empty(beams, np.float32)
    for k, a in enumerate(th + np.linspace(-math.pi, math.pi, beams, endpoint=False)):
        c, s = math.cos(a), math.sin(a)
        tx = ((7.0 if c > 0 else 0.5) - x0) / c if abs(c) > 1e-6 else math.inf
        ty = ((7.0 if s > 0 else 0.5) - y0) / s if abs(s) > 1e-6 else math.inf
        out[k] = min(tx, ty)
    return out


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    mapper = OccupancyMapper(SensorModel(), dev, stream)
    path = [(3.0 + 0.2 * k, 3.5, 0.1 * k) for k in range(4)]
    for pose in path:
        mapper.integrate(pose, box_room_scan(pose))
    p = mapper.probabilities()
    occupied = int((p > 0.65).sum())
    free = int((p < 0.35).sum())
    assert free > occupied > 0, (free, occupied)
    print(f"mapped {len(path)} scans: {occupied} occupied cells, {free} free cells")


if __name__ == "__main__":
    main()
