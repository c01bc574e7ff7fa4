# fresh-expect: clean
# fresh-note: MacCormack smoke-density advection with a scratch pool leased through a context manager that pops distinct buffers and returns them after each step.
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

NX, NY = 32, 16


@simt.kernel
@simt.launch_contract(block=(16, 16))
def advect(src: Slice[f32], ux: Slice[f32], uy: Slice[f32], dst: DisjointSlice[f32], nx: i32, ny: i32, dt: f32) -> None:
    idx = thread.index_2d(nx)
    if idx is None:
        return
    i = idx.get()
    if i >= len(src):
        return
    x = min(max(f32(i % nx) - dt * ux[i], f32(0.0)), f32(nx - 1) - f32(0.001))
    y = min(max(f32(i // nx) - dt * uy[i], f32(0.0)), f32(ny - 1) - f32(0.001))
    x0 = i32(x)
    y0 = i32(y)
    fx = x - f32(x0)
    fy = y - f32(y0)
    top = src[y0 * nx + x0] * (f32(1.0) - fx) + src[y0 * nx + x0 + 1] * fx
    bot = src[(y0 + 1) * nx + x0] * (f32(1.0) - fx) + src[(y0 + 1) * nx + x0 + 1] * fx
    if (out := dst.get_mut(idx)) is not None:
        out.set(top * (f32(1.0) - fy) + bot * fy)


@simt.kernel
@simt.launch_contract(block=(16, 16))
def correct(phi: Slice[f32], hat: Slice[f32], bar: Slice[f32], out: DisjointSlice[f32], nx: i32) -> None:
    idx = thread.index_2d(nx)
    if idx is None:
        return
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(hat[i] + f32(0.5) * (phi[i] - bar[i]), f32(0.0)))


class ScratchPool:
    def __init__(self, stream: sk.Stream, n: int) -> None:
        self.stream, self.n = stream, n
        self.free: list[sk.DeviceBuffer] = []

    @contextmanager
    def lease(self, k: int) -> Iterator[list[sk.DeviceBuffer]]:
        taken = [self.free.pop() if self.free else sk.zeros(self.n, f32, self.stream) for _ in range(k)]
        try:
            yield taken
        finally:
            self.free.extend(taken)


class SmokeSolver:
    def __init__(self, dev: sk.Device, stream: sk.Stream, rho: np.ndarray, ux: np.ndarray, uy: np.ndarray) -> None:
        self.stream = stream
        self.rho = sk.to_device(rho.ravel(), stream)
        self.nxt = sk.zeros(NX * NY, f32, stream)
        self.vel = {+1: (sk.to_device(ux.ravel(), stream), sk.to_device(uy.ravel(), stream)),
                    -1: (sk.to_device(-ux.ravel(), stream), sk.to_device(-uy.ravel(), stream))}
        self.pool = ScratchPool(stream, NX * NY)
        cfg = simt.LaunchConfig2D.for_shape(NY, NX, block=(16, 16))
        self.adv_launch = advect.prepare(cfg, dev)
        self.cor_launch = correct.prepare(cfg, dev)

    def _advect(self, src: sk.DeviceBuffer, dst: sk.DeviceBuffer, sign: int, dt: float) -> None:
        ux, uy = self.vel[sign]
        advect.launch(self.adv_launch, self.stream, src, ux, uy, dst, NX, NY, dt)

    def step(self, dt: float) -> None:
        with self.pool.lease(2) as (hat, bar):
            self._advect(self.rho, hat, +1, dt)
            self._advect(hat, bar, -1, dt)
            correct.launch(self.cor_launch, self.stream, self.rho, hat, bar, self.nxt, NX)
        self.rho, self.nxt = self.nxt, self.rho


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    yy, xx = np.mgrid[0:NY, 0:NX].astype(np.float32)
    rho = np.exp(-((xx - 10) ** 2 + (yy - 8) ** 2) / 8.0).astype(np.float32)
    ux = (1.0 + 0.2 * np.cos(yy / 4.0)).astype(np.float32)
    uy = np.zeros((NY, NX), np.float32)
    solver = SmokeSolver(dev, stream, rho, ux, uy)
    for _ in range(4):
        solver.step(0.4)
    field = solver.rho.to_numpy(stream).reshape(NY, NX)
    print(f"peak moved from column {rho.max(0).argmax()} to {field.max(0).argmax()}; mass {field.sum():.3f}")


if __name__ == "__main__":
    main()
