# fresh-expect: E0133 at line 80
# fresh-note: A CG solver's `dot()` wraps the call of its `_dot_unchecked` helper in `with simt.unsafe():`, but unsafe is lexical, so the `launch_unchecked` inside the helper runs outside any unsafe block.
"""Conjugate-gradient solve of the 1-D Poisson problem -u'' = 1 with Dirichlet ends.

Matrix-vector products and vector updates are SIMT kernels; the two dot products per iteration use a warp
reduction into a one-element atomic accumulator, optionally through an unchecked fast launch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread, warp


@dataclass
class CgConfig:
    n: int = 48
    max_iters: int = 60
    tol: float = 1e-5
    fast_reductions: bool = True


@simt.kernel
@simt.launch_contract(block=64)
def laplace(p: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(p)
    if i < n:
        v = f32(2.0) * p[i]
        if i > 0:
            v -= p[i - 1]
        if i < n - 1:
            v -= p[i + 1]
        if (o := out.get_mut(idx)) is not None:
            o.set(v)


@simt.kernel
@simt.launch_contract(block=64)
def axpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


@simt.kernel
@simt.launch_contract(block=64)
def dot(a: Slice[f32], b: Slice[f32], acc: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    v = f32(0.0)
    if i < len(a):
        v = a[i] * b[i]
    total = warp.reduce_sum(v)
    if thread.lane_id() == 0:
        acc.fetch_add(0, total)


class CgSolver:
    def __init__(self, cfg: CgConfig, device: sk.Device) -> None:
        self.cfg = cfg
        self.stream = device.new_stream()
        self.grid = simt.LaunchConfig1D.for_len(cfg.n, block=64)
        self.lap = laplace.prepare(self.grid, device)
        self.upd = axpy.prepare(self.grid, device)
        self.red = dot.prepare(self.grid, device)
        self.acc = sk.zeros(1, f32, self.stream)
        h = 1.0 / (cfg.n + 1)
        self.b = sk.to_device(np.full(cfg.n, h * h, np.float32), self.stream)

    def _dot_unchecked(self, a: sk.DeviceBuffer, b: sk.DeviceBuffer) -> float:
        self.acc.copy_from_numpy(np.zeros(1, np.float32))
        dot.launch_unchecked(self.grid, self.stream, a, b, self.acc)
        return float(self.acc.to_numpy(self.stream)[0])

    def dot(self, a: sk.DeviceBuffer, b: sk.DeviceBuffer) -> float:
        if self.cfg.fast_reductions:
            with simt.unsafe():            # reviewed: one 64-lane block per 64 elements, acc has one cell
                return self._dot_unchecked(a, b)
        self.acc.copy_from_numpy(np.zeros(1, np.float32))
        dot.launch(self.red, self.stream, a, b, self.acc)
        return float(self.acc.to_numpy(self.stream)[0])

    def solve(self) -> tuple[np.ndarray, int]:
        n, s = self.cfg.n, self.stream
        x, x_next = sk.zeros(n, f32, s), sk.zeros(n, f32, s)
        r, r_next = sk.to_device(self.b.to_numpy(s), s), sk.zeros(n, f32, s)
        p, p_next = sk.to_device(self.b.to_numpy(s), s), sk.zeros(n, f32, s)
        ap = sk.zeros(n, f32, s)
        rr = self.dot(r, r)
        it = 0
        while it < self.cfg.max_iters and rr ** 0.5 > self.cfg.tol * 1e-3:
            laplace.launch(self.lap, s, p, ap)
            alpha = rr / self.dot(p, ap)
            axpy.launch(self.upd, s, p, x, x_next, alpha)
            axpy.launch(self.upd, s, ap, r, r_next, -alpha)
            x, x_next = x_next, x
            r, r_next = r_next, r
            rr_new = self.dot(r, r)
            axpy.launch(self.upd, s, p, r, p_next, rr_new / rr)
            p, p_next = p_next, p
            rr = rr_new
            it += 1
        return x.to_numpy(s), it


def main() -> None:
    cfg = CgConfig()
    solution, iters = CgSolver(cfg, sk.Device.cpu()).solve()
    grid = np.arange(1, cfg.n + 1) / (cfg.n + 1)
    exact = 0.5 * grid * (1.0 - grid)
    print(f"cg: {iters} iterations, max error {np.abs(solution - exact).max():.2e}")


if __name__ == "__main__":
    main()
