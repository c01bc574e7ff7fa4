# fresh-expect: E0499 at line 79
# fresh-known-miss: cli,mypy two views at computed offsets (`self.out.view(lo, hi)` of ghost-cell ranges from a property) returned in a list built by a loop: overlapping computed ranges are not compared
# fresh-note: A split-domain Jacobi solver builds each subdomain's output view from its range with ghost cells, so the left and right views of `self.out` overlap by two cells and are passed as two mutable outputs of one `relax_pair` launch.
"""1-D Jacobi relaxation for -u'' = f over a domain split into two subdomains, both updated by one launch.

Each subdomain knows its owned range and its range with ghost cells; the launch writes each subdomain's part of
the next iterate through a view of the output buffer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

GHOST = 1


@simt.device
def jacobi_at(u: Slice[f32], f: Slice[f32], g: u32, h2: f32) -> f32:
    if g == 0 or g >= len(u) - 1:
        return f32(0.0)
    return f32(0.5) * (u[g - 1] + u[g + 1] + h2 * f[g])


@simt.kernel
@simt.launch_contract(block=32)
def relax_pair(u: Slice[f32], f: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32],
               left_lo: u32, right_lo: u32, h2: f32) -> None:
    i = thread.index_1d().get()
    if i < len(left) and (a := left.get_mut(thread.index_1d())) is not None:
        a.set(jacobi_at(u, f, left_lo + u32(i), h2))
    if i < len(right) and (b := right.get_mut(thread.index_1d())) is not None:
        b.set(jacobi_at(u, f, right_lo + u32(i), h2))


@dataclass(frozen=True)
class Subdomain:
    lo: int
    hi: int
    n_global: int

    @property
    def owned(self) -> tuple[int, int]:
        return self.lo, self.hi

    @property
    def with_ghosts(self) -> tuple[int, int]:
        return max(self.lo - GHOST, 0), min(self.hi + GHOST, self.n_global)


class SplitJacobi:
    def __init__(self, n: int, device: sk.Device) -> None:
        self.n = n
        self.stream = device.new_stream()
        mid = n // 2
        self.parts = (Subdomain(0, mid, n), Subdomain(mid, n, n))
        self.u = sk.zeros(n, f32, self.stream)
        self.out = sk.zeros(n, f32, self.stream)
        self.f = sk.to_device(np.ones(n, np.float32), self.stream)
        self.h2 = (1.0 / (n - 1)) ** 2
        width = max(hi - lo for lo, hi in (p.with_ghosts for p in self.parts))
        self.prepared = relax_pair.prepare(simt.LaunchConfig1D.for_len(width, block=32), device)

    def write_views(self) -> list[tuple[int, sk.DeviceBuffer]]:
        views = []
        for part in self.parts:
            lo, hi = part.with_ghosts           # ghosts are recomputed too, so neighbours see fresh values
            views.append((lo, self.out.view(lo, hi)))
        return views

    def iterate(self) -> None:
        (left_lo, left), (right_lo, right) = self.write_views()
        relax_pair.launch(self.prepared, self.stream, self.u, self.f, left, right, left_lo, right_lo, self.h2)
        self.u, self.out = self.out, self.u

    def run(self, sweeps: int, tol: float) -> int:
        last = self.u.to_numpy(self.stream)
        for k in range(sweeps):
            self.iterate()
            if k % 10 != 9:
                continue
            now = self.u.to_numpy(self.stream)
            if np.abs(now - last).max() < tol:
                return k + 1
            last = now
        return sweeps


def main() -> None:
    solver = SplitJacobi(40, sk.Device.cpu())
    used = solver.run(200, 1e-7)
    u = solver.u.to_numpy(solver.stream)
    print(f"{used} sweeps, u(mid) = {u[len(u) // 2]:.5f}")


if __name__ == "__main__":
    main()
