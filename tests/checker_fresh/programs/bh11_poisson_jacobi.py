# fresh-expect: E0308 at line 77
# fresh-note: 2-D Poisson solve by Jacobi sweeps on a Grid class whose cached `launch` property is prepared for the jacobi kernel; the periodic residual check reuses that prepared launch for the residual kernel.
"""Solve -lap(u) = f on the unit square with Jacobi sweeps, checking the residual every few sweeps."""
from __future__ import annotations
import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

ROWS, COLS = 40, 48
CHECK_EVERY = 8
TOLERANCE = 5e-3


@simt.kernel
@simt.launch_contract(block=(16, 16))
def jacobi(u: Slice[f32], f: Slice[f32], u_new: DisjointSlice[f32], cols: i32, h2: f32) -> None:
    if (idx := thread.index_2d(cols)) is None:
        return
    k = idx.get()
    rows = len(u) // cols
    r, c = k // cols, k % cols
    if (o := u_new.get_mut(idx)) is not None:
        if r == 0 or c == 0 or r == rows - 1 or c == cols - 1:
            o.set(u[k])
        else:
            o.set(0.25 * (u[k - 1] + u[k + 1] + u[k - cols] + u[k + cols] + h2 * f[k]))


@simt.kernel
@simt.launch_contract(block=(16, 16))
def residual(u: Slice[f32], f: Slice[f32], res: DisjointSlice[f32], cols: i32, inv_h2: f32) -> None:
    if (idx := thread.index_2d(cols)) is None:
        return
    k = idx.get()
    rows = len(u) // cols
    r, c = k // cols, k % cols
    if (o := res.get_mut(idx)) is not None:
        if r == 0 or c == 0 or r == rows - 1 or c == cols - 1:
            o.set(0.0)
        else:
            lap = (u[k - 1] + u[k + 1] + u[k - cols] + u[k + cols] - 4.0 * u[k]) * inv_h2
            o.set(f[k] + lap)


class Grid:
    def __init__(self, rows: int, cols: int, dev: sk.Device, stream: sk.Stream) -> None:
        self.rows, self.cols, self.dev, self.stream = rows, cols, dev, stream
        self.h = 1.0 / (cols - 1)
        y, x = np.mgrid[0:rows, 0:cols].astype(np.float32) * self.h
        source = (2.0 * np.pi**2 * np.sin(np.pi * x) * np.sin(np.pi * y)).astype(np.float32)
        self.f = sk.to_device(source.ravel(), stream)
        self.u = sk.zeros(rows * cols, f32, stream)
        self.u_new = sk.zeros(rows * cols, f32, stream)
        self.res = sk.zeros(rows * cols, f32, stream)

    @functools.cached_property
    def launch(self) -> simt.PreparedLaunch:
        """One 16x16-block launch over the whole grid (every stencil here shares the shape)."""
        return jacobi.prepare(simt.LaunchConfig2D.for_shape(self.rows, self.cols, block=(16, 16)), self.dev)

    def sweep(self) -> None:
        jacobi.launch(self.launch, self.stream, self.u, self.f, self.u_new, self.cols, self.h * self.h)
        self.u, self.u_new = self.u_new, self.u


def solve(grid: Grid, max_sweeps: int) -> tuple[int, float]:
    norm = float("inf")
    for sweep in range(1, max_sweeps + 1):
        grid.sweep()
        if sweep % CHECK_EVERY:
            continue
        residual.launch(grid.launch, grid.stream, grid.u, grid.f, grid.res, grid.cols, 1.0 / (grid.h * grid.h))
        norm = float(np.abs(grid.res.to_numpy(grid.stream)).max())
        if norm < TOLERANCE:
            return sweep, norm
    return max_sweeps, norm


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    grid = Grid(ROWS, COLS, dev, stream)
    sweeps, norm = solve(grid, max_sweeps=24)
    u = grid.u.to_numpy(stream).reshape(ROWS, COLS)
    print(f"{sweeps} sweeps, residual {norm:.3e}, centre value {u[ROWS // 2, COLS // 2]:.4f}")


if __name__ == "__main__":
    main()
