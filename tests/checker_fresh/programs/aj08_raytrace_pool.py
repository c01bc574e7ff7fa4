# fresh-expect: E0499 at line 91
# fresh-note: Ray-sphere tracer whose scratch-buffer pool caches buffers by element count only, so asking it for the near and far hit-distance buffers of the same frame returns one buffer and the trace launch gets it as both mutable outputs.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

MISS = 1.0e30


@simt.kernel
@simt.launch_contract(block=(16, 16))
def trace(spheres: Slice[f32], t_near: DisjointSlice[f32], t_far: DisjointSlice[f32],
          width: i32, height: i32) -> None:
    near_idx = thread.index_2d(width)
    far_idx = thread.index_2d(width)
    if near_idx is None or far_idx is None:
        return
    k = near_idx.get()
    col = k % width
    row = k // width
    dx = (f32(col) + f32(0.5)) / f32(width) * f32(2.0) - f32(1.0)
    dy = (f32(row) + f32(0.5)) / f32(height) * f32(2.0) - f32(1.0)
    norm = math.sqrt(dx * dx + dy * dy + f32(1.0))
    best_near = f32(MISS)
    best_far = f32(MISS)
    for s in range(len(spheres) // 4):
        cx = spheres[4 * s]
        cy = spheres[4 * s + 1]
        cz = spheres[4 * s + 2]
        rad = spheres[4 * s + 3]
        b = (dx * cx + dy * cy + cz) / norm
        c = cx * cx + cy * cy + cz * cz - rad * rad
        disc = b * b - c
        if disc > f32(0.0):
            root = math.sqrt(disc)
            if b - root > f32(0.0) and b - root < best_near:
                best_near = b - root
                best_far = b + root
    if (n_out := t_near.get_mut(near_idx)) is not None:
        n_out.set(best_near)
    if (f_out := t_far.get_mut(far_idx)) is not None:
        f_out.set(best_far)


@simt.kernel
@simt.launch_contract(block=256)
def shade(t_near: Slice[f32], t_far: Slice[f32], image: DisjointSlice[f32], fog: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (px := image.get_mut(idx)) is not None:
        if t_near[i] >= f32(MISS):
            px.set(f32(0.1))
        else:
            thickness = t_far[i] - t_near[i]
            px.set(min(f32(1.0), thickness) * math.exp(-fog * t_near[i]))


class ScratchPool:
    """Keeps device buffers alive between frames so a render loop allocates nothing."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._free: dict[int, sk.DeviceBuffer] = {}

    def get(self, n: int) -> sk.DeviceBuffer:
        if n not in self._free:
            self._free[n] = sk.zeros(n, f32, self.stream)
        return self._free[n]


class Renderer:
    def __init__(self, width: int, height: int, dev: sk.Device) -> None:
        self.width, self.height = width, height
        self.stream = dev.new_stream()
        self.pool = ScratchPool(self.stream)
        self.trace_launch = trace.prepare(simt.LaunchConfig2D.for_shape(height, width, block=(16, 16)), dev)
        self.shade_launch = shade.prepare(simt.LaunchConfig1D.for_len(width * height, block=256), dev)

    def render(self, spheres: np.ndarray, fog: float) -> np.ndarray:
        pixels = self.width * self.height
        scene = sk.to_device(spheres.astype(np.float32).ravel(), self.stream)
        near = self.pool.get(pixels)
        far = self.pool.get(pixels)
        trace.launch(self.trace_launch, self.stream, scene, near, far, self.width, self.height)
        image = sk.zeros(pixels, f32, self.stream)
        shade.launch(self.shade_launch, self.stream, near, far, image, fog)
        return image.to_numpy(self.stream).reshape(self.height, self.width)


def main() -> None:
    renderer = Renderer(48, 32, sk.Device.cpu())
    frames = []
    for shift in (0.0, 0.2):
        spheres = np.array([[0.0 + shift, 0.0, 4.0, 1.0], [1.5, 0.5 - shift, 6.0, 0.8]])
        frames.append(renderer.render(spheres, fog=0.1))
    print("mean brightness per frame:", [round(float(f.mean()), 4) for f in frames])


if __name__ == "__main__":
    main()
