# fresh-expect: E0505 at line 65
# fresh-note: Double-buffered LIDAR ground-plane odometry that swaps front/back right after queueing the async transform of the next scan, so the tile residual launch moves the buffer the pending transform is still writing.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

POINTS = 256
T = 64


@simt.kernel
@simt.launch_contract(block=128, requires=("len(raw) == 3 * n", "len(world) == 3 * n", "len(pose) >= 12"))
def transform(raw: Slice[f32], pose: Slice[f32], world: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    j = idx.get()
    if j < 3 * n and (o := world.get_mut(idx)) is not None:
        c = j // n
        p = j % n
        x, y, z = raw[p], raw[n + p], raw[2 * n + p]
        o.set(pose[4 * c] * x + pose[4 * c + 1] * y + pose[4 * c + 2] * z + pose[4 * c + 3])


@tile.kernel
def ground_residual(res: Partition[f32], world: Tensor[f32], a: f32, b: f32, c: f32, d: f32) -> None:
    k = tile.bid(0)
    nt = tile.num_blocks(0)
    x = world.load((k,), (T,))
    y = world.load((k + nt,), (T,))
    z = world.load((k + 2 * nt,), (T,))
    res.store(a * x + b * y + c * z - d)


def pose_matrix(yaw: float, tx: float, tz: float) -> np.ndarray:
    cy, sy = math.cos(yaw), math.sin(yaw)
    return np.array([cy, -sy, 0.0, tx, sy, cy, 0.0, 0.0, 0.0, 0.0, 1.0, tz], np.float32)


def synth_scan(rng: np.random.Generator, height: float) -> np.ndarray:
    xy = rng.uniform(-20.0, 20.0, (2, POINTS))
    z = np.full(POINTS, -height) + rng.normal(0.0, 0.02, POINTS)
    return np.concatenate([xy[0], xy[1], z]).astype(np.float32)


class GroundOdometry:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.launch = transform.prepare(simt.LaunchConfig1D.for_len(3 * POINTS, block=128), dev)
        self.front = sk.zeros(3 * POINTS, f32, stream)
        self.back = sk.zeros(3 * POINTS, f32, stream)
        self.yaw, self.tx, self.tz = 0.0, 0.0, 1.7

    def _pose(self) -> sk.DeviceBuffer:
        return sk.to_device(pose_matrix(self.yaw, self.tx, self.tz), self.stream)

    def _residual_mean(self) -> float:
        res = tile.zeros((POINTS,), f32).partition((T,))
        res, self.front, *_plane = ground_residual(res, self.front, 0.0, 0.0, 1.0, 0.0).sync_on(self.stream)
        return float(res.unpartition().to_numpy(self.stream).mean())

    def start(self, scan: np.ndarray) -> None:
        raw = sk.to_device(scan, self.stream)
        transform.launch(self.launch, self.stream, raw, self._pose(), self.front, POINTS)

    def track(self, scans: list[np.ndarray]) -> list[float]:
        drift = []
        for scan in scans:
            raw = sk.to_device(scan, self.stream)
            pending = transform.launch_async(self.launch, raw, self._pose(), self.back, POINTS)
            self.front, self.back = self.back, self.front
            err = self._residual_mean()
            pending.sync_on(self.stream)
            self.tz -= err
            self.yaw += 0.01
            drift.append(err)
        return drift


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(2)
    scans = [synth_scan(rng, 1.7 + 0.05 * k) for k in range(5)]
    odo = GroundOdometry(dev, stream)
    odo.start(scans[0])
    drift = odo.track(scans[1:])
    print("ground residual per frame:", [f"{e:+.3f}" for e in drift], f"final tz {odo.tz:.3f}")


if __name__ == "__main__":
    main()
