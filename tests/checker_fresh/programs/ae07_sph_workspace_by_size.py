# fresh-expect: E0499 at line 88
# idiom: a hand-written cache method called on an attribute of the receiver (`self.workspace.get("density", self.n)`, keyed by `n` only) (found since the twentieth session: a hand-written cache method on an object an attribute holds)
"""A toy 1-D smoothed-particle hydrodynamics step.

Particles on a line carry a position and a velocity.  Each step estimates every particle's density
from its neighbours within the smoothing length, turns it into a pressure, and pushes the particles
apart.  Per-step scratch arrays (density, pressure) come from a small workspace pool so that the
simulation does not allocate device memory in its inner loop.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def density_pressure(
    pos: Slice[f32], density: DisjointSlice[f32], pressure: DisjointSlice[f32], h: f32, stiffness: f32
) -> None:
    i = thread.index_1d().get()
    if i < len(pos):
        rho = f32(0.0)
        for j in range(len(pos)):
            d = abs(pos[i] - pos[j])
            if d < h:
                rho += (h - d) / h
        if (dr := density.get_mut(thread.index_1d())) is not None:
            dr.set(rho)
        if (pr := pressure.get_mut(thread.index_1d())) is not None:
            pr.set(stiffness * (rho - 1.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def advance(
    pos: Slice[f32], vel: Slice[f32], pressure: Slice[f32],
    pos_out: DisjointSlice[f32], vel_out: DisjointSlice[f32], dt: f32,
) -> None:
    i = thread.index_1d().get()
    n = len(pos)
    if i < n:
        left = pressure[i - 1] if i > 0 else pressure[i]
        right = pressure[i + 1] if i < n - 1 else pressure[i]
        v = vel[i] + dt * (left - right)
        if (vo := vel_out.get_mut(thread.index_1d())) is not None:
            vo.set(v)
        if (po := pos_out.get_mut(thread.index_1d())) is not None:
            po.set(pos[i] + dt * v)


class Workspace:
    """Hands out device scratch arrays and keeps them for the next step."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._pool: dict[object, sk.DeviceBuffer[f32]] = {}

    def get(self, name: str, n: int) -> sk.DeviceBuffer[f32]:
        if n not in self._pool:
            self._pool[n] = sk.zeros(n, f32, self.stream)
        return self._pool[n]


class Simulation:
    def __init__(self, positions: np.ndarray, device: sk.Device) -> None:
        self.n = len(positions)
        self.stream = device.new_stream()
        self.pos = sk.to_device(positions.astype(np.float32), self.stream)
        self.vel = sk.zeros(self.n, f32, self.stream)
        self.pos_next = sk.zeros(self.n, f32, self.stream)
        self.vel_next = sk.zeros(self.n, f32, self.stream)
        self.workspace = Workspace(self.stream)
        config = simt.LaunchConfig1D.for_len(self.n, block=BLOCK)
        self.dp_launch = density_pressure.prepare(config, device)
        self.adv_launch = advance.prepare(config, device)

    def step(self, h: float, stiffness: float, dt: float) -> None:
        density = self.workspace.get("density", self.n)
        pressure = self.workspace.get("pressure", self.n)
        density_pressure.launch(self.dp_launch, self.stream, self.pos, density, pressure, h, stiffness)
        advance.launch(self.adv_launch, self.stream, self.pos, self.vel, pressure, self.pos_next, self.vel_next, dt)
        self.pos, self.pos_next = self.pos_next, self.pos
        self.vel, self.vel_next = self.vel_next, self.vel


def main() -> None:
    rng = np.random.default_rng(11)
    start = np.sort(rng.uniform(0.0, 1.0, 96))
    sim = Simulation(start, sk.Device.cpu())
    for _ in range(5):
        sim.step(h=0.05, stiffness=2.0, dt=0.05)
    final = sim.pos.to_numpy(sim.stream)
    print(f"spread {start.std():.5f} -> {final.std():.5f}")


if __name__ == "__main__":
    main()
