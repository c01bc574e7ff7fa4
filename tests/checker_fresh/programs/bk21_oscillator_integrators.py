# fresh-expect: E0308 at line 115
# fresh-note: `VelocityVerlet` subclasses `SymplecticEuler` without naming its own `kernel`, so the inherited `__init__` prepares the launch for `symplectic_step` and the overridden `advance()` launches `verlet_step` with it.
"""Energy drift of explicit Euler, symplectic Euler and velocity Verlet on a bank of harmonic oscillators.

Each integrator class names its SIMT kernel; the base class prepares the launch for the kernel its class names,
and the Verlet integrator overrides `advance` because it carries the acceleration between steps.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STIFFNESS = 4.0


@simt.kernel
@simt.launch_contract(block=128)
def euler_step(x: Slice[f32], v: Slice[f32], x_out: DisjointSlice[f32], v_out: DisjointSlice[f32],
               dt: f32, k: f32) -> None:
    i = thread.index_1d().get()
    if i >= len(x):
        return
    if (xo := x_out.get_mut(thread.index_1d())) is not None:
        xo.set(x[i] + dt * v[i])
    if (vo := v_out.get_mut(thread.index_1d())) is not None:
        vo.set(v[i] - dt * k * x[i])


@simt.kernel
@simt.launch_contract(block=128)
def symplectic_step(x: Slice[f32], v: Slice[f32], x_out: DisjointSlice[f32], v_out: DisjointSlice[f32],
                    dt: f32, k: f32) -> None:
    i = thread.index_1d().get()
    if i >= len(x):
        return
    v_new = v[i] - dt * k * x[i]
    if (vo := v_out.get_mut(thread.index_1d())) is not None:
        vo.set(v_new)
    if (xo := x_out.get_mut(thread.index_1d())) is not None:
        xo.set(x[i] + dt * v_new)


@simt.kernel
@simt.launch_contract(block=128)
def verlet_step(x: Slice[f32], v: Slice[f32], a: Slice[f32], x_out: DisjointSlice[f32],
                v_out: DisjointSlice[f32], a_out: DisjointSlice[f32], dt: f32, k: f32) -> None:
    i = thread.index_1d().get()
    if i >= len(x):
        return
    half = v[i] + f32(0.5) * dt * a[i]
    x_new = x[i] + dt * half
    a_new = -k * x_new
    if (xo := x_out.get_mut(thread.index_1d())) is not None:
        xo.set(x_new)
    if (ao := a_out.get_mut(thread.index_1d())) is not None:
        ao.set(a_new)
    if (vo := v_out.get_mut(thread.index_1d())) is not None:
        vo.set(half + f32(0.5) * dt * a_new)


class Integrator:
    kernel = euler_step
    label = "explicit euler"

    def __init__(self, x0: np.ndarray, device: sk.Device, dt: float) -> None:
        self.stream = device.new_stream()
        self.dt = dt
        n = len(x0)
        self.prepared = type(self).kernel.prepare(simt.LaunchConfig1D.for_len(n, block=128), device)
        self.x, self.x_out = sk.to_device(x0, self.stream), sk.zeros(n, f32, self.stream)
        self.v, self.v_out = sk.zeros(n, f32, self.stream), sk.zeros(n, f32, self.stream)

    def advance(self) -> None:
        euler_step.launch(self.prepared, self.stream, self.x, self.v, self.x_out, self.v_out, self.dt, STIFFNESS)

    def swap(self) -> None:
        self.x, self.x_out = self.x_out, self.x
        self.v, self.v_out = self.v_out, self.v

    def energy(self) -> float:
        x, v = self.x.to_numpy(self.stream), self.v.to_numpy(self.stream)
        return float(0.5 * (v * v).sum() + 0.5 * STIFFNESS * (x * x).sum())

    def drift(self, steps: int) -> float:
        e0 = self.energy()
        for _ in range(steps):
            self.advance()
            self.swap()
        return abs(self.energy() - e0) / e0


class SymplecticEuler(Integrator):
    kernel = symplectic_step
    label = "symplectic euler"

    def advance(self) -> None:
        symplectic_step.launch(self.prepared, self.stream, self.x, self.v, self.x_out, self.v_out, self.dt,
                               STIFFNESS)


class VelocityVerlet(SymplecticEuler):
    label = "velocity verlet"

    def __init__(self, x0: np.ndarray, device: sk.Device, dt: float) -> None:
        super().__init__(x0, device, dt)
        self.a = sk.to_device((-STIFFNESS * x0).astype(np.float32), self.stream)
        self.a_out = sk.zeros(len(x0), f32, self.stream)

    def advance(self) -> None:
        verlet_step.launch(self.prepared, self.stream, self.x, self.v, self.a, self.x_out, self.v_out,
                           self.a_out, self.dt, STIFFNESS)
        self.a, self.a_out = self.a_out, self.a


def main() -> None:
    device = sk.Device.cpu()
    x0 = np.linspace(0.1, 1.0, 200, dtype=np.float32)
    for cls in (Integrator, SymplecticEuler, VelocityVerlet):
        print(f"{cls.label:>17}: relative energy drift {cls(x0, device, dt=0.05).drift(40):.2e}")


if __name__ == "__main__":
    main()
