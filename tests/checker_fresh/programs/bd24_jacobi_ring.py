# fresh-expect: clean
# fresh-note: A 2-D Jacobi Poisson solver keeps its two iterates in a deque, launches a 2-D SIMT sweep from ring[0] into ring[1] and rotates the ring, checking the residual on the host every few sweeps.
"""Jacobi iteration for -lap(u) = f on a square with u = 0 on the boundary."""
from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

NX = 24
NY = 18


@simt.kernel
@simt.launch_contract(block=(16, 8))
def sweep(u: Slice[f32], rhs: Slice[f32], out: DisjointSlice[f32], nx: u32, ny: u32, h2: f32) -> None:
    idx = thread.index_2d(nx)
    if idx is None:
        return
    k = idx.get()
    if k >= nx * ny:
        return
    r = k // nx
    c = k % nx
    value = f32(0.0)
    if r > 0 and r < ny - 1 and c > 0 and c < nx - 1:
        value = 0.25 * (u[k - 1] + u[k + 1] + u[k - nx] + u[k + nx] + h2 * rhs[k])
    if (cell := out.get_mut(idx)) is not None:
        cell.set(value)


def residual(u: np.ndarray, f: np.ndarray, h2: float) -> float:
    lap = u[1:-1, :-2] + u[1:-1, 2:] + u[:-2, 1:-1] + u[2:, 1:-1] - 4.0 * u[1:-1, 1:-1]
    return float(np.abs(lap / h2 + f[1:-1, 1:-1]).max())


def solve(f: np.ndarray, sweeps: int, check_every: int):
    dev = sk.Device.default()
    stream = dev.new_stream()
    h2 = (1.0 / (NX - 1)) ** 2
    rhs = sk.to_device(f.ravel().astype(np.float32), stream)
    ring = deque([sk.zeros(NX * NY, f32, stream), sk.zeros(NX * NY, f32, stream)])
    plan = sweep.prepare(simt.LaunchConfig2D.for_shape(NY, NX, block=(16, 8)), dev)
    history = []
    for it in range(1, sweeps + 1):
        sweep.launch(plan, stream, ring[0], rhs, ring[1], NX, NY, h2)
        ring.rotate(1)
        if it % check_every == 0:
            u = ring[0].to_numpy(stream).reshape(NY, NX)
            history.append(residual(u, f, h2))
    return ring[0].to_numpy(stream).reshape(NY, NX), history


def main() -> None:
    yy, xx = np.mgrid[0:NY, 0:NX]
    f = np.exp(-((xx - NX / 2) ** 2 + (yy - NY / 2) ** 2) / 10.0).astype(np.float32)
    u, history = solve(f, sweeps=120, check_every=30)
    assert history[-1] < history[0], history
    assert np.all(u[0, :] == 0) and np.all(u[:, -1] == 0)
    print("residuals:", [round(r, 3) for r in history], "max u", float(u.max()))


if __name__ == "__main__":
    main()
