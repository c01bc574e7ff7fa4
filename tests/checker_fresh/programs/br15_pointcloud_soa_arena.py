# fresh-expect: E0499 at line 98
# fresh-known-miss: cli,mypy field views `self.buf.view(k * self.stride, k * self.stride + n)` after a growth check against the whole buffer's length: a view's bounds from an attribute a method rebinds are not compared
# fresh-note: the SoA arena's growth check compares the point count with the arena's total length instead of its per-field stride, so an 80-point dual-return scan gets field views 64 apart that overlap and two outputs of one launch write the same memory.
"""Lidar driver post-processing: packed XYZI points to structure-of-arrays, then per-point range.

The driver hands over packed float32 records (x, y, z, intensity).  Downstream filters want one contiguous
array per field, so the node keeps a single device arena with one field after another and re-uses it
across scans, growing it when a scan has more points than it was sized for.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FIELDS = ("x", "y", "z", "i")
PAGE = 512  # elements: the allocator hands out whole 2 KiB pages


@simt.kernel
@simt.launch_contract(block=64)
def deinterleave(packed: Slice[f32], xs: DisjointSlice[f32], ys: DisjointSlice[f32], zs: DisjointSlice[f32],
                 inten: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (x := xs.get_mut(thread.index_1d())) is not None:
        x.set(packed[4 * i])
    if (y := ys.get_mut(thread.index_1d())) is not None:
        y.set(packed[4 * i + 1])
    if (z := zs.get_mut(thread.index_1d())) is not None:
        z.set(packed[4 * i + 2])
    if (w := inten.get_mut(thread.index_1d())) is not None:
        w.set(packed[4 * i + 3])


@simt.kernel
@simt.launch_contract(block=64)
def point_range(xs: Slice[f32], ys: Slice[f32], zs: Slice[f32], r: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := r.get_mut(idx)) is not None:
        o.set((xs[i] * xs[i] + ys[i] * ys[i] + zs[i] * zs[i]) ** 0.5)


class SoAArena:
    """One device allocation holding len(FIELDS) fields of `stride` points each."""

    def __init__(self, stride: int, stream: sk.Stream) -> None:
        self.stream = stream
        self.stride = stride
        self.buf = sk.zeros(self._paged(stride), f32, stream)
        self.grows = 0

    @staticmethod
    def _paged(stride: int) -> int:
        return -(-stride * len(FIELDS) // PAGE) * PAGE

    def ensure_capacity(self, n: int) -> None:
        if n > len(self.buf):
            self.stride = n
            self.buf = sk.zeros(self._paged(n), f32, self.stream)
            self.grows += 1

    def views(self, n: int) -> dict[str, sk.DeviceBuffer]:
        self.ensure_capacity(n)
        return {name: self.buf.view(k * self.stride, k * self.stride + n) for k, name in enumerate(FIELDS)}


@dataclass
class ScanStats:
    points: int
    max_range: float
    mean_intensity: float


class CloudNode:
    def __init__(self, dev: sk.Device, stream: sk.Stream, nominal_points: int) -> None:
        self.dev = dev
        self.stream = stream
        self.arena = SoAArena(nominal_points, stream)

    @functools.lru_cache(maxsize=8)
    def _prepared(self, kernel_name: str, n: int) -> object:
        kernel = {"deinterleave": deinterleave, "point_range": point_range}[kernel_name]
        return kernel.prepare(simt.LaunchConfig1D.for_len(n, block=64), self.dev)

    def on_scan(self, packed: np.ndarray) -> ScanStats:
        n = len(packed) // 4
        raw = sk.to_device(packed.astype(np.float32), self.stream)
        cloud = self.arena.views(n)
        xs, ys, zs, inten = (cloud[name] for name in FIELDS)
        deinterleave.launch(self._prepared("deinterleave", n), self.stream, raw, xs, ys, zs, inten)
        ranges = sk.zeros(n, f32, self.stream)
        point_range.launch(self._prepared("point_range", n), self.stream, xs, ys, zs, ranges)
        r = ranges.to_numpy(self.stream)
        return ScanStats(n, float(r.max()), float(inten.to_numpy(self.stream).mean()))


def fake_scan(points: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    az = rng.uniform(-np.pi, np.pi, points)
    el = rng.uniform(-0.3, 0.3, points)
    rng_m = rng.uniform(1.0, 30.0, points)
    xyz = np.stack([rng_m * np.cos(el) * np.cos(az), rng_m * np.cos(el) * np.sin(az), rng_m * np.sin(el)], 1)
    inten = rng.uniform(0.0, 255.0, (points, 1))
    return np.hstack([xyz, inten]).astype(np.float32).ravel()


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    node = CloudNode(dev, stream, nominal_points=64)
    stats = []
    for seed, points in enumerate([64, 64, 80, 64]):  # the third scan carries dual returns
        scan = fake_scan(points, seed)
        st = node.on_scan(scan)
        want = np.linalg.norm(scan.reshape(-1, 4)[:, :3], axis=1).max()
        assert abs(st.max_range - want) < 1e-3 * want, (st.max_range, want)
        stats.append(st)
    print(f"{len(stats)} scans, arena grew {node.arena.grows}x:",
          ", ".join(f"{s.points} pts / {s.max_range:.1f} m" for s in stats))


if __name__ == "__main__":
    main()
