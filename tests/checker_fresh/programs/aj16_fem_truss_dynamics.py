# fresh-expect: E0502 at line 71
# fresh-note: Explicit dynamics of a 1-D truss whose class starts the internal-force kernel asynchronously and keeps the op in an attribute; the driver applies the support constraints (an in-place write of the displacements) while that op, which reads the displacements, is still pending.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def internal_force(u: Slice[f32], k: Slice[f32], load: Slice[f32], f: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(u)
    if i < n:
        right = k[i] * (u[i + 1] - u[i]) if i + 1 < n else f32(0.0)
        left = k[i - 1] * (u[i] - u[i - 1]) if i > 0 else f32(0.0)
        if (o := f.get_mut(idx)) is not None:
            o.set(right - left + load[i])


@simt.kernel
@simt.launch_contract(block=64)
def integrate(f: Slice[f32], v: DisjointSlice[f32], u: DisjointSlice[f32], dt: f32, inv_mass: f32,
              damping: f32) -> None:
    i = thread.index_1d().get()
    if (vel := v.get_mut(thread.index_1d())) is not None:
        nv = (vel.get() + dt * f[i] * inv_mass) * (f32(1.0) - damping)
        vel.set(nv)
        if (disp := u.get_mut(thread.index_1d())) is not None:
            disp.set(disp.get() + dt * nv)


@simt.kernel
@simt.launch_contract(block=64)
def clamp_supports(fixed: Slice[f32], u: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := u.get_mut(idx)) is not None:
        o.set(o.get() * (f32(1.0) - fixed[i]))


class Truss:
    def __init__(self, nodes: int, stiffness: np.ndarray, supports: list[int], dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        s = self.stream
        self.u = sk.zeros(nodes, f32, s)
        self.v = sk.zeros(nodes, f32, s)
        self.f = sk.zeros(nodes, f32, s)
        self.k = sk.to_device(stiffness.astype(np.float32), s)
        fixed = np.zeros(nodes, np.float32)
        fixed[supports] = 1.0
        self.fixed = sk.to_device(fixed, s)
        load = np.zeros(nodes, np.float32)
        load[nodes // 2] = -5.0
        self.load = sk.to_device(load, s)
        cfg = simt.LaunchConfig1D.for_len(nodes, block=64)
        self.force_launch = internal_force.prepare(cfg, dev)
        self.integrate_launch = integrate.prepare(cfg, dev)
        self.clamp_launch = clamp_supports.prepare(cfg, dev)
        self.force_op: sk.DeviceOp | None = None

    def begin_step(self) -> None:
        self.force_op = internal_force.launch_async(self.force_launch, self.u, self.k, self.load, self.f)

    def apply_supports(self) -> None:
        clamp_supports.launch(self.clamp_launch, self.stream, self.fixed, self.u)

    def finish_step(self, dt: float, mass: float) -> None:
        if self.force_op is not None:
            self.force_op.sync_on(self.stream)
            self.force_op = None
        integrate.launch(self.integrate_launch, self.stream, self.f, self.v, self.u, dt, 1.0 / mass, 0.02)

    def deflection(self) -> float:
        return float(np.abs(self.u.to_numpy(self.stream)).max())


def simulate(nodes: int = 256, steps: int = 5) -> list[float]:
    stiffness = np.full(nodes, 400.0)
    stiffness[nodes // 3: nodes // 3 + 10] = 150.0       # a weakened member
    truss = Truss(nodes, stiffness, supports=[0, nodes - 1], dev=sk.Device.cpu())
    trace = []
    for _ in range(steps):
        truss.begin_step()
        truss.apply_supports()
        truss.finish_step(dt=0.01, mass=1.0)
        trace.append(truss.deflection())
    return trace


if __name__ == "__main__":
    print("max deflection per step:", [round(d, 6) for d in simulate()])
