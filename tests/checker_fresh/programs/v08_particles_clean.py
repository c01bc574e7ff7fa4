# fresh-expect: clean
# fresh-note: -
"""Particle simulation with double-buffered positions and velocities, swapped as tuples after each step."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def integrate(pos: Slice[f32], vel: Slice[f32], pos_next: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (p := pos_next.get_mut(idx)) is not None:
        p.set(pos[i] + vel[i])


@simt.kernel
@simt.launch_contract(block=128)
def damp(vel: Slice[f32], vel_next: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (v := vel_next.get_mut(idx)) is not None:
        v.set(vel[i] * 0.5)


class Simulation:
    def __init__(self, dev: sk.Device, n: int) -> None:
        self.stream = dev.new_stream()
        cfg = simt.LaunchConfig1D.for_len(n, block=128)
        self.move = integrate.prepare(cfg, dev)
        self.friction = damp.prepare(cfg, dev)
        self.pos, self.pos_next = sk.zeros(n, f32, self.stream), sk.zeros(n, f32, self.stream)
        self.vel = sk.to_device(np.full(n, 2.0, dtype=np.float32), self.stream)
        self.vel_next = sk.zeros(n, f32, self.stream)

    def step(self) -> None:
        integrate.launch(self.move, self.stream, self.pos, self.vel, self.pos_next)
        damp.launch(self.friction, self.stream, self.vel, self.vel_next)
        self.pos, self.pos_next = self.pos_next, self.pos
        self.vel, self.vel_next = self.vel_next, self.vel

    def run(self, steps: int) -> np.ndarray:
        for _ in range(steps):
            self.step()
        return self.pos.to_numpy(self.stream)


sim = Simulation(sk.Device.cpu(), 512)
print(sim.run(4)[:3])
