# fresh-expect: E0502 at line 35
# fresh-note: -
"""Particle simulation with double-buffered positions; the swap after each step is the ported line."""
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


class Simulation:
    def __init__(self, dev: sk.Device, n: int) -> None:
        self.stream = dev.new_stream()
        self.prepared = integrate.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
        self.pos = sk.to_device(np.zeros(n, dtype=np.float32), self.stream)
        self.vel = sk.to_device(np.full(n, 0.5, dtype=np.float32), self.stream)
        self.pos_next = sk.zeros(n, f32, self.stream)
        self.steps = 0

    @property
    def positions(self) -> np.ndarray:
        return self.pos.to_numpy(self.stream)

    def step(self) -> None:
        integrate.launch(self.prepared, self.stream, self.pos, self.vel, self.pos_next)
        # NumPy version was `pos = pos_next`; the back buffer is now the front one too
        self.pos = self.pos_next
        self.steps += 1


sim = Simulation(sk.Device.cpu(), 1000)
for _ in range(3):
    sim.step()
print(sim.steps, sim.positions[:3])
