"""A grid's `@functools.cached_property` prepares one launch for the whole grid (`jacobi.prepare(...)`); the
residual check, in a function that only gets the grid, reuses `grid.launch` for the residual kernel (E0308, as the
runtime's `BrandError` says).  Reading a property is reading what its getter returns, as for a method's call: a
prepared launch branded `jacobi`, here and wherever `grid.launch` is read."""

import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def jacobi(u: Slice[f32], f: Slice[f32], u_new: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := u_new.get_mut(idx)) is not None:
        o.set(0.5 * (u[i] + f[i]))


@simt.kernel
@simt.launch_contract(block=64)
def residual(u: Slice[f32], f: Slice[f32], res: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := res.get_mut(idx)) is not None:
        o.set(f[i] - u[i])


class Grid:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self.u = sk.zeros(N, f32, stream)
        self.f = sk.to_device(np.linspace(0.0, 1.0, N).astype(np.float32), stream)
        self.u_new = sk.zeros(N, f32, stream)
        self.res = sk.zeros(N, f32, stream)

    @functools.cached_property
    def launch(self) -> simt.PreparedLaunch:
        return jacobi.prepare(simt.LaunchConfig1D.for_len(N, block=64), self.dev)

    def sweep(self) -> None:
        jacobi.launch(self.launch, self.stream, self.u, self.f, self.u_new)
        self.u, self.u_new = self.u_new, self.u


def check(grid: Grid) -> float:
    residual.launch(grid.launch, grid.stream, grid.u, grid.f, grid.res)  # expect: E0308
    return float(np.abs(grid.res.to_numpy(grid.stream)).max())


def main() -> None:
    dev = sk.Device.cpu()
    grid = Grid(dev, dev.new_stream())
    for _ in range(3):
        grid.sweep()
    print(check(grid))


if __name__ == "__main__":
    main()
