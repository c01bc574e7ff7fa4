# fresh-expect: E0502 at line 72
# fresh-note: A 2-D heat relaxation solver whose `_target()` helper returns `self.u` itself in the configured Gauss-Seidel mode, so `sweep()` passes the field as both the read-only `u` and the mutable `out` of one `relax` launch.
"""Steady 2-D heat equation (Poisson problem) relaxed with a Jacobi or Gauss-Seidel style sweep.

The solver keeps the temperature field and a scratch field on the device and picks the sweep's output buffer
from its configuration.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread


class Method(enum.Enum):
    JACOBI = "jacobi"
    GAUSS_SEIDEL = "gauss-seidel"


@dataclass
class HeatConfig:
    n: int = 24
    max_iters: int = 60
    check_every: int = 5
    source: float = 1.0
    tol: float = 1e-6
    method: Method = Method.GAUSS_SEIDEL


@simt.kernel
@simt.launch_contract(block=(8, 8))
def relax(u: Slice[f32], f: Slice[f32], out: DisjointSlice[f32], n: u32, h2: f32) -> None:
    r = thread.block_idx_y() * thread.block_dim_y() + thread.thread_idx_y()
    c = thread.block_idx_x() * thread.block_dim_x() + thread.thread_idx_x()
    if (idx := thread.index_2d(n)) is not None and r < n:
        i = idx.get()
        v = u[i]
        if r > 0 and r < n - 1 and c > 0 and c < n - 1:
            v = f32(0.25) * (u[i - 1] + u[i + 1] + u[i - n] + u[i + n] + h2 * f[i])
        if (o := out.get_mut(idx)) is not None:
            o.set(v)


class HeatSolver:
    def __init__(self, cfg: HeatConfig, device: sk.Device) -> None:
        self.cfg = cfg
        self.stream = device.new_stream()
        size = cfg.n * cfg.n
        self.u = sk.zeros(size, f32, self.stream)
        self.scratch = sk.zeros(size, f32, self.stream)
        self.rhs = sk.to_device(np.full(size, cfg.source, np.float32), self.stream)
        grid = simt.LaunchConfig2D.for_shape(cfg.n, cfg.n, block=(8, 8))
        self.prepared = relax.prepare(grid, device)
        self.h2 = (1.0 / (cfg.n - 1)) ** 2
        self.sweeps = 0

    def _target(self) -> sk.DeviceBuffer:
        # Gauss-Seidel uses updated values as soon as they exist, so it can sweep in place
        if self.cfg.method is Method.GAUSS_SEIDEL:
            return self.u
        return self.scratch

    def sweep(self) -> None:
        out = self._target()
        relax.launch(self.prepared, self.stream, self.u, self.rhs, out, self.cfg.n, self.h2)
        if out is self.scratch:
            self.u, self.scratch = self.scratch, self.u
        self.sweeps += 1

    @property
    def field(self) -> np.ndarray:
        return self.u.to_numpy(self.stream).reshape(self.cfg.n, self.cfg.n)

    def solve(self) -> float:
        previous = self.field
        change = float("inf")
        for it in range(1, self.cfg.max_iters + 1):
            self.sweep()
            if it % self.cfg.check_every:
                continue
            current = self.field
            change = float(np.max(np.abs(current - previous)))
            if change < self.cfg.tol:
                break
            previous = current
        return change


def main() -> None:
    cfg = HeatConfig()
    solver = HeatSolver(cfg, sk.Device.cpu())
    change = solver.solve()
    centre = solver.field[cfg.n // 2, cfg.n // 2]
    assert centre > 0.0
    print(f"{cfg.method.value}: {solver.sweeps} sweeps, last change {change:.2e}, centre {centre:.4f}")


if __name__ == "__main__":
    main()
