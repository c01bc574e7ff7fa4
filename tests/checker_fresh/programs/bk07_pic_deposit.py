# fresh-expect: E0505 at line 106
# fresh-note: A PIC loop with `overlap_deposit=True` leaves the async `deposit` op (which borrows `self.rho` mutably) pending while `solve_field()` moves `self.rho` into the `gauss` tile launch.
"""1-D electrostatic particle-in-cell loop: charge deposit (SIMT atomics), Gauss's law (Tile), particle push (SIMT).

The deposit is started asynchronously so that host bookkeeping can overlap it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

CELLS = 32
T = 8


@dataclass
class PicConfig:
    particles: int = 256
    steps: int = 4
    dt: float = 0.05
    overlap_deposit: bool = True


@simt.kernel
@simt.launch_contract(block=64)
def deposit(xp: Slice[f32], rho: AtomicSlice[f32], weight: f32, cells: u32) -> None:
    i = thread.index_1d().get()
    if i < len(xp):
        cell = u32(xp[i] * f32(cells)) % cells
        rho.fetch_add(cell, weight)


@simt.device
def wrap_unit(x: f32) -> f32:
    if x >= f32(1.0):
        return x - f32(1.0)
    if x < f32(0.0):
        return x + f32(1.0)
    return x


@simt.kernel
@simt.launch_contract(block=64)
def push(xp: Slice[f32], vp: Slice[f32], e: Slice[f32], x_out: DisjointSlice[f32], v_out: DisjointSlice[f32],
         dt: f32, cells: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(xp):
        return
    cell = u32(xp[i] * f32(cells)) % cells
    v = vp[i] - dt * e[cell]
    x = xp[i] + dt * v
    x = wrap_unit(x)
    if (xo := x_out.get_mut(idx)) is not None:
        xo.set(x)
    if (vo := v_out.get_mut(thread.index_1d())) is not None:
        vo.set(v)


@tile.kernel
def gauss(e: Partition[f32], rho: Tensor[f32], mean: f32) -> None:
    rows = tile.reshape(tile.iota(T, f32) + f32(tile.bid(0) * T), (T, 1))
    cols = tile.reshape(tile.iota(CELLS, f32), (1, CELLS))
    dens = tile.reshape(rho.load((0,), (CELLS,)), (1, CELLS)) - mean
    e.store(tile.sum(tile.where(cols <= rows, tile.broadcast_to(dens, (T, CELLS)), 0.0), axis=1) / CELLS)


class PicSim:
    def __init__(self, cfg: PicConfig, device: sk.Device) -> None:
        self.cfg = cfg
        self.stream = device.new_stream()
        rng = np.random.default_rng(7)
        x0 = (np.linspace(0, 1, cfg.particles, endpoint=False) + 0.01 * rng.standard_normal(cfg.particles)) % 1.0
        self.xp = sk.to_device(x0.astype(np.float32), self.stream)
        self.vp = sk.zeros(cfg.particles, f32, self.stream)
        self.x_new = sk.zeros(cfg.particles, f32, self.stream)
        self.v_new = sk.zeros(cfg.particles, f32, self.stream)
        self.rho = sk.zeros(CELLS, f32, self.stream)
        self.efield = sk.zeros(CELLS, f32, self.stream)
        grid = simt.LaunchConfig1D.for_len(cfg.particles, block=64)
        self.dep_launch = deposit.prepare(grid, device)
        self.push_launch = push.prepare(grid, device)
        self.pending: sk.DeviceOp | None = None
        self.weight = CELLS / cfg.particles

    def scatter_charge(self) -> None:
        self.rho.copy_from_numpy(np.zeros(CELLS, np.float32))
        self.pending = deposit.launch_async(self.dep_launch, self.xp, self.rho, self.weight, CELLS)
        if not self.cfg.overlap_deposit:
            self.finish_deposit()

    def finish_deposit(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def solve_field(self) -> None:
        e, self.rho, _ = gauss(tile.zeros((CELLS,), f32).partition((T,)), self.rho, 1.0).sync_on(self.stream)
        self.efield = sk.as_buffer(e.unpartition())

    def push_particles(self) -> None:
        push.launch(self.push_launch, self.stream, self.xp, self.vp, self.efield, self.x_new, self.v_new,
                    self.cfg.dt, CELLS)
        self.xp, self.x_new = self.x_new, self.xp
        self.vp, self.v_new = self.v_new, self.vp

    def run(self) -> float:
        for _ in range(self.cfg.steps):
            self.scatter_charge()
            self.solve_field()
            self.finish_deposit()
            self.push_particles()
        return float(np.abs(self.vp.to_numpy(self.stream)).max())


def main() -> None:
    sim = PicSim(PicConfig(), sk.Device.cpu())
    print("max |v| after the run:", sim.run())


if __name__ == "__main__":
    main()
