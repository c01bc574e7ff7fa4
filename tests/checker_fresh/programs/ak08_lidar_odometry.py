# fresh-expect: clean
# fresh-note: Double-buffered LIDAR height odometry that overlaps the async transform of the next scan with the tile residual of the current one and swaps the buffers only after the pending op is synced in a finally block.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

POINTS = 192
T = 64


@simt.kernel
@simt.launch_contract(block=128, requires=("len(raw) == 3 * n", "len(world) == 3 * n", "len(pose) >= 12"))
def transform(raw: Slice[f32], pose: Slice[f32], world: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    j = idx.get()
    if j < 3 * n and (o := world.get_mut(idx)) is not None:
        c = j // n
        p = j % n
        o.set(pose[4 * c] * raw[p] + pose[4 * c + 1] * raw[n + p] + pose[4 * c + 2] * raw[2 * n + p] + pose[4 * c + 3])


@tile.kernel
def height_residual(res: Partition[f32], world: Tensor[f32], ground: f32) -> None:
    k = tile.bid(0)
    z = world.load((k + 2 * tile.num_blocks(0),), (T,))
    res.store(z - ground)


def pose_matrix(yaw: float, tx: float, tz: float) -> np.ndarray:
    cy, sy = math.cos(yaw), math.sin(yaw)
    return np.array([cy, -sy, 0.0, tx, sy, cy, 0.0, 0.0, 0.0, 0.0, 1.0, tz], np.float32)


def synth_scans(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    out = []
    for k in range(count):
        xy = rng.uniform(-15.0, 15.0, (2, POINTS))
        z = -(1.6 + 0.04 * k) + rng.normal(0.0, 0.02, POINTS)
        out.append(np.concatenate([xy[0], xy[1], z]).astype(np.float32))
    return out


class HeightOdometry:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.launch = transform.prepare(simt.LaunchConfig1D.for_len(3 * POINTS, block=128), dev)
        self.front = sk.zeros(3 * POINTS, f32, stream)
        self.back = sk.zeros(3 * POINTS, f32, stream)
        self.yaw, self.tz = 0.0, 1.6

    def _pose(self) -> sk.DeviceBuffer:
        return sk.to_device(pose_matrix(self.yaw, 0.0, self.tz), self.stream)

    def _residual(self) -> float:
        res = tile.zeros((POINTS,), f32).partition((T,))
        res, self.front, _g = height_residual(res, self.front, 0.0).sync_on(self.stream)
        return float(np.median(res.unpartition().to_numpy(self.stream)))

    def prime(self, scan: np.ndarray) -> None:
        transform.launch(self.launch, self.stream, sk.to_device(scan, self.stream), self._pose(), self.front, POINTS)

    def track(self, scans: list[np.ndarray]) -> list[float]:
        errors = []
        for scan in scans:
            raw = sk.to_device(scan, self.stream)
            pending = transform.launch_async(self.launch, raw, self._pose(), self.back, POINTS)
            try:
                err = self._residual()
            finally:
                pending.sync_on(self.stream)
            self.front, self.back = self.back, self.front
            self.tz -= err
            self.yaw += 0.02
            errors.append(err)
        return errors


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    scans = synth_scans(np.random.default_rng(9), 5)
    odo = HeightOdometry(dev, stream)
    odo.prime(scans[0])
    errors = odo.track(scans[1:])
    print("height error per frame:", [f"{e:+.3f}" for e in errors], f"estimate {odo.tz:.3f}")


if __name__ == "__main__":
    main()
