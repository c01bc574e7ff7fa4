# fresh-expect: E0502 at line 64
# fresh-note: 1-D heat diffusion over a table of rods held in a class; the "inplace" scheme makes Rod.step pass self.u both as the stencil input and as the output.
"""Explicit finite-difference heat diffusion for several metal rods, each a Rod object with its own buffers."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(u) >= len(out)",))
def heat_step(u: Slice[f32], out: DisjointSlice[f32], r: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(out)
    if (o := out.get_mut(idx)) is not None:
        if i == 0 or i == n - 1:
            o.set(u[i])  # Dirichlet ends: held at their initial temperature
        else:
            o.set(u[i] + r * (u[i - 1] - 2.0 * u[i] + u[i + 1]))


@dataclass(frozen=True)
class Material:
    name: str
    diffusivity: float  # m^2/s
    scheme: str  # "explicit" (ping-pong) or "inplace" (saves a buffer)


MATERIALS = (
    Material("copper", 1.11e-4, "explicit"),
    Material("aluminium", 9.7e-5, "explicit"),
    Material("steel", 1.2e-5, "inplace"),
)


class Rod:
    def __init__(self, material: Material, dx: float, dt: float, dev: sk.Device, stream: sk.Stream) -> None:
        self.material = material
        self.stream = stream
        x = np.linspace(0.0, 1.0, N, dtype=np.float32)
        hot_spot = np.exp(-((x - 0.5) ** 2) / 0.002).astype(np.float32) * 80.0 + 20.0
        self.u = sk.to_device(hot_spot, stream)
        self.u_next = sk.zeros(N, f32, stream) if material.scheme == "explicit" else None
        self.r = material.diffusivity * dt / (dx * dx)
        assert self.r < 0.5, f"{material.name}: unstable time step (r={self.r:.3f})"
        self.prepared = heat_step.prepare(simt.LaunchConfig1D.for_len(N, block=BLOCK), dev)
        self.steps = 0

    def peak(self) -> float:
        return float(self.u.to_numpy(self.stream).max())

    def step(self) -> None:
        dst = self.u_next if self.u_next is not None else self.u
        heat_step.launch(self.prepared, self.stream, self.u, dst, self.r)
        if self.u_next is not None:
            self.u, self.u_next = self.u_next, self.u
        self.steps += 1


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    dx = 1.0 / (N - 1)
    dt = 0.2 * dx * dx / max(m.diffusivity for m in MATERIALS)
    rods = {m.name: Rod(m, dx, dt, dev, stream) for m in MATERIALS}
    for name, rod in rods.items():
        start = rod.peak()
        for _ in range(40):
            rod.step()
            if rod.peak() < 0.9 * start:
                print(f"{name}: cooled by 10% after {rod.steps} steps")
                break
        else:
            print(f"{name}: peak {start:.2f} -> {rod.peak():.2f} after {rod.steps} steps")


if __name__ == "__main__":
    main()
