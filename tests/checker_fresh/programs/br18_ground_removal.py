# fresh-expect: clean
# fresh-note: `classify` launches on the above-ground tensor that `remove_ground` kept (lent to SIMT through `as_buffer`), not on the `heights` buffer the tile launch consumed.
"""Ground removal and obstacle classification for an outdoor UGV's lidar (tile + SIMT tracks).

A ground plane z = a*x + b*y + c is fitted on the host to the lowest returns of each sweep; a tile kernel
subtracts it from every point's height, and a SIMT kernel flags points whose height above ground lies in
the band the vehicle cannot drive over.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

POINTS = 512
TILE = 128


@tile.kernel
def subtract_plane(h: Partition[f32], xs: Tensor[f32], ys: Tensor[f32], a: f32, b: f32, c: f32) -> None:
    x = tile.load_like(xs, h)
    y = tile.load_like(ys, h)
    h.store(h.load() - (x * a + y * b + c))


@simt.kernel
@simt.launch_contract(block=128)
def obstacle_mask(h: Slice[f32], mask: DisjointSlice[i32], lo: f32, hi: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (m := mask.get_mut(idx)) is not None:
        m.set(i32(1) if lo <= h[i] and h[i] <= hi else i32(0))


@dataclass(frozen=True)
class Plane:
    a: float
    b: float
    c: float

    @classmethod
    def fit(cls, pts: np.ndarray, quantile: float = 0.3) -> "Plane":
        low = pts[pts[:, 2] <= np.quantile(pts[:, 2], quantile)]
        design = np.column_stack([low[:, 0], low[:, 1], np.ones(len(low))])
        (a, b, c), *_ = np.linalg.lstsq(design, low[:, 2], rcond=None)
        return cls(float(a), float(b), float(c))


@dataclass
class Sweep:
    stream: sk.Stream
    points: np.ndarray
    xs: sk.DeviceBuffer = field(init=False)
    ys: sk.DeviceBuffer = field(init=False)
    heights: sk.DeviceBuffer = field(init=False)
    above_ground: Tensor[f32] | None = None

    def __post_init__(self) -> None:
        cols = self.points.astype(np.float32)
        self.xs = sk.to_device(np.ascontiguousarray(cols[:, 0]), self.stream)
        self.ys = sk.to_device(np.ascontiguousarray(cols[:, 1]), self.stream)
        self.heights = sk.to_device(np.ascontiguousarray(cols[:, 2]), self.stream)

    def remove_ground(self, plane: Plane) -> None:
        parts = self.heights.partition((TILE,))
        op = subtract_plane(parts, self.xs, self.ys, plane.a, plane.b, plane.c)
        parts, self.xs, self.ys, *_coeffs = op.sync_on(self.stream)
        self.above_ground = parts.unpartition()


class ObstacleClassifier:
    def __init__(self, dev: sk.Device, stream: sk.Stream, band: tuple[float, float] = (0.25, 2.0)) -> None:
        self.stream = stream
        self.band = band
        self.prepared = obstacle_mask.prepare(simt.LaunchConfig1D.for_len(POINTS, block=128), dev)

    def classify(self, sweep: Sweep) -> np.ndarray:
        mask = sk.zeros(POINTS, i32, self.stream)
        lo, hi = self.band
        if sweep.above_ground is None:
            raise RuntimeError("remove_ground() must run before classify()")
        obstacle_mask.launch(self.prepared, self.stream, sk.as_buffer(sweep.above_ground), mask, lo, hi)
        return mask.to_numpy(self.stream).astype(bool)


def synthetic_sweep(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A gently sloped field with a few boxes (obstacles) and one overhanging branch."""
    rng = np.random.default_rng(seed)
    xy = rng.uniform(-10.0, 10.0, (POINTS, 2))
    ground = 0.05 * xy[:, 0] - 0.02 * xy[:, 1] + 0.3
    z = ground + rng.normal(0.0, 0.02, POINTS)
    truth = np.zeros(POINTS, bool)
    for cx, cy, height in [(3.0, 2.0, 0.8), (-4.0, -5.0, 1.2), (6.0, -3.0, 0.5)]:
        inside = (np.abs(xy[:, 0] - cx) < 1.0) & (np.abs(xy[:, 1] - cy) < 1.0)
        z[inside] = ground[inside] + rng.uniform(0.3, height, inside.sum())
        truth |= inside
    branch = (np.abs(xy[:, 0] + 1.0) < 0.8) & (np.abs(xy[:, 1] - 6.0) < 0.8)
    z[branch] = ground[branch] + 3.5  # above the vehicle: not an obstacle
    return np.column_stack([xy, z]), truth


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    clf = ObstacleClassifier(dev, stream)
    for seed in range(3):
        pts, truth = synthetic_sweep(seed)
        sweep = Sweep(stream, pts)
        sweep.remove_ground(Plane.fit(pts))
        flagged = clf.classify(sweep)
        recall = (flagged & truth).sum() / max(truth.sum(), 1)
        false_pos = (flagged & ~truth).sum()
        assert recall > 0.9 and false_pos < 5, (recall, false_pos)
        print(f"sweep {seed}: {flagged.sum()} obstacle points, recall {recall:.2f}, {false_pos} false positives")


if __name__ == "__main__":
    main()
