# fresh-expect: E0502 at line 82
# fresh-known-false-alarm: cli,mypy false E0502 at line 83: the corrector launch reads and writes the same peeked buffer too, a line the runtime never reaches once line 82 raises (a cascade of the same bug)
# fresh-note: MacCormack dye advection on a 2-D grid with a scratch-buffer pool whose acquire() peeks instead of popping, so the backward advection reads and writes the same scratch buffer.
from __future__ import annotations
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

NX, NY = 32, 24


@simt.kernel
@simt.launch_contract(block=(16, 16))
def advect(src: Slice[f32], ux: Slice[f32], uy: Slice[f32], dst: DisjointSlice[f32], nx: i32, ny: i32, dt: f32) -> None:
    idx = thread.index_2d(nx)
    if idx is None:
        return
    i = idx.get()
    if i >= len(src):
        return
    row = i // nx
    col = i % nx
    x = min(max(f32(col) - dt * ux[i], f32(0.0)), f32(nx - 1) - f32(0.001))
    y = min(max(f32(row) - dt * uy[i], f32(0.0)), f32(ny - 1) - f32(0.001))
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
        o.set(hat[i] + f32(0.5) * (phi[i] - bar[i]))


@dataclass
class ScratchPool:
    stream: sk.Stream
    n: int
    free: list[sk.DeviceBuffer] = field(default_factory=list)

    def acquire(self) -> sk.DeviceBuffer:
        if not self.free:
            return sk.zeros(self.n, f32, self.stream)
        return self.free[-1]          # meant: self.free.pop()

    def release(self, *bufs: sk.DeviceBuffer) -> None:
        self.free.extend(bufs)


class DyeSolver:
    def __init__(self, dev: sk.Device, stream: sk.Stream, dye: np.ndarray, ux: np.ndarray, uy: np.ndarray) -> None:
        self.stream = stream
        self.phi = sk.to_device(dye.ravel(), stream)
        self.ux = sk.to_device(ux.ravel(), stream)
        self.neg_ux = sk.to_device(-ux.ravel(), stream)
        self.uy = sk.to_device(uy.ravel(), stream)
        self.neg_uy = sk.to_device(-uy.ravel(), stream)
        self.pool = ScratchPool(stream, NX * NY)
        cfg = simt.LaunchConfig2D.for_shape(NY, NX, block=(16, 16))
        self.adv_launch = advect.prepare(cfg, dev)
        self.cor_launch = correct.prepare(cfg, dev)

    def step(self, dt: float) -> None:
        hat, bar, nxt = self.pool.acquire(), self.pool.acquire(), self.pool.acquire()
        advect.launch(self.adv_launch, self.stream, self.phi, self.ux, self.uy, hat, NX, NY, dt)
        advect.launch(self.adv_launch, self.stream, hat, self.neg_ux, self.neg_uy, bar, NX, NY, dt)
        correct.launch(self.cor_launch, self.stream, self.phi, hat, bar, nxt, NX)
        self.pool.release(self.phi, hat, bar)
        self.phi = nxt


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    yy, xx = np.mgrid[0:NY, 0:NX].astype(np.float32)
    dye = np.exp(-((xx - 8) ** 2 + (yy - 12) ** 2) / 10.0).astype(np.float32)
    ux = np.full((NY, NX), 1.5, np.float32)
    uy = (0.3 * np.sin(xx / 5.0)).astype(np.float32)
    solver = DyeSolver(dev, stream, dye, ux, uy)
    # the first step allocates fresh scratch; later steps draw from the pool
    for _ in range(3):
        solver.step(0.5)
    mass = float(solver.phi.to_numpy(stream).sum())
    print(f"dye mass after 3 steps: {mass:.3f} (started at {dye.sum():.3f})")


if __name__ == "__main__":
    main()
