# fresh-expect: clean
# idiom: @simt.device helper reading a shared-array sphere cache, with its own unsafe block (clean)
"""Sphere-traced depth map of a few spheres, one ray-marching step per launch.

Every block stages the sphere table (centre xyz + radius) into shared memory once, then each
thread advances its ray by the distance to the nearest sphere surface.  The ray distances are
double-buffered between steps.  The depth map is checked against a numpy ray marcher.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, SharedArray, Slice, thread

BLOCK = 64
MAX_SPHERES = 16  # 4 floats each: the whole table fits one block's lanes


@simt.device
def sphere_field(cache: SharedArray[f32], s: int, k: int) -> f32:
    with simt.unsafe():
        return cache[4 * s + k]


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("count <= 16", "len(spheres) >= 4 * count",
                                             "len(dirs) >= 3 * len(t_out)", "len(t_in) >= len(t_out)"))
def march(ox: f32, oy: f32, oz: f32, dirs: Slice[f32], spheres: Slice[f32], count: u32,
          t_in: Slice[f32], t_out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    lane = thread.thread_idx_x()
    with simt.unsafe():
        cache = simt.shared_array(f32, 4 * MAX_SPHERES)
        if lane < 4 * count:
            cache[lane] = spheres[lane]
    thread.sync_threads()
    if i < len(t_out):
        t = t_in[i]
        px = ox + t * dirs[3 * i]
        py = oy + t * dirs[3 * i + 1]
        pz = oz + t * dirs[3 * i + 2]
        best = f32(1.0e30)
        with simt.unsafe():
            for s in range(count):
                dx = px - sphere_field(cache, s, 0)
                dy = py - sphere_field(cache, s, 1)
                dz = pz - sphere_field(cache, s, 2)
                best = min(best, math.sqrt(dx * dx + dy * dy + dz * dz) - sphere_field(cache, s, 3))
        if (out := t_out.get_mut(idx)) is not None:
            out.set(t + best)


@dataclass
class Camera:
    origin: tuple[float, float, float]
    width: int
    height: int
    fov_deg: float = 60.0

    def rays(self) -> np.ndarray:
        half = math.tan(math.radians(self.fov_deg) / 2.0)
        xs = np.linspace(-half, half, self.width)
        ys = np.linspace(-half, half, self.height) * self.height / self.width
        gx, gy = np.meshgrid(xs, ys)
        d = np.stack([gx, gy, np.ones_like(gx)], axis=-1).reshape(-1, 3)
        return (d / np.linalg.norm(d, axis=1, keepdims=True)).astype(np.float32)


def render_depth(camera: Camera, spheres: np.ndarray, steps: int) -> np.ndarray:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rays = camera.rays()
    n = len(rays)
    dirs = sk.to_device(rays.ravel(), stream)
    table = sk.to_device(spheres.astype(np.float32).ravel(), stream)
    t_cur, t_next = sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)
    prepared = march.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
    ox, oy, oz = camera.origin
    for _ in range(steps):
        march.launch(prepared, stream, ox, oy, oz, dirs, table, len(spheres), t_cur, t_next)
        t_cur, t_next = t_next, t_cur
    return t_cur.to_numpy(stream).reshape(camera.height, camera.width)


def reference(camera: Camera, spheres: np.ndarray, steps: int) -> np.ndarray:
    rays = camera.rays().astype(np.float64)
    t = np.zeros(len(rays))
    for _ in range(steps):
        p = np.asarray(camera.origin) + t[:, None] * rays
        dist = np.linalg.norm(p[:, None, :] - spheres[None, :, :3], axis=2) - spheres[None, :, 3]
        t = t + dist.min(axis=1)
    return t.reshape(camera.height, camera.width)


def main() -> None:
    spheres = np.array([[0.0, 0.0, 5.0, 1.0], [1.5, 0.5, 7.0, 1.2], [-1.8, -0.4, 6.0, 0.8]])
    camera = Camera(origin=(0.0, 0.0, 0.0), width=16, height=12)
    depth = render_depth(camera, spheres, steps=20)
    np.testing.assert_allclose(depth, reference(camera, spheres, steps=20), rtol=1e-3, atol=1e-3)
    hits = depth < 20.0
    print(f"{int(hits.sum())} of {hits.size} rays hit; nearest depth {float(depth.min()):.3f}")


if __name__ == "__main__":
    main()
