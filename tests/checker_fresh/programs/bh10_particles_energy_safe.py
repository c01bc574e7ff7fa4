# fresh-expect: clean
# fresh-note: Leapfrog particles in a harmonic trap with a per-block kinetic-energy reduction; the @simt.device reduction helper creates and indexes its shared array inside its own `with simt.unsafe():` block.
"""Symplectic (leapfrog) integration of independent particles in a harmonic trap, tracking total kinetic energy."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BLOCK = 64
N_PARTICLES = 512


@simt.device
def block_sum(value: f32) -> f32:
    """Tree reduction of one value per thread; every thread gets the block's total."""
    t = thread.thread_idx_x()
    with simt.unsafe():  # t < BLOCK and t + stride < BLOCK: every index is in the array
        scratch = simt.shared_array(f32, BLOCK)
        scratch[t] = value
        thread.sync_threads()
        stride = BLOCK // 2
        while stride > 0:
            if t < stride:
                scratch[t] = scratch[t] + scratch[t + stride]
            thread.sync_threads()
            stride = stride // 2
        total = scratch[0]
    return total


@simt.kernel
@simt.launch_contract(block=BLOCK)
def leapfrog(x: Slice[f32], v: Slice[f32], x_out: DisjointSlice[f32], v_out: DisjointSlice[f32],
             energy: AtomicSlice[f32], dt: f32, omega2: f32) -> None:
    idx = thread.index_1d()
    idx_v = thread.index_1d()
    i = idx.get()
    e = f32(0.0)
    if i < len(x):
        v_half = v[i] - 0.5 * dt * omega2 * x[i]
        x_new = x[i] + dt * v_half
        v_new = v_half - 0.5 * dt * omega2 * x_new
        e = 0.5 * v_new * v_new
        if (xo := x_out.get_mut(idx)) is not None:
            xo.set(x_new)
        if (vo := v_out.get_mut(idx_v)) is not None:
            vo.set(v_new)
    total = block_sum(e)
    if thread.thread_idx_x() == 0:
        energy.fetch_add(0, total)


@dataclass
class Ensemble:
    stream: sk.Stream
    x: sk.DeviceBuffer
    v: sk.DeviceBuffer
    x_next: sk.DeviceBuffer
    v_next: sk.DeviceBuffer
    history: list[float] = field(default_factory=list)

    @classmethod
    def thermal(cls, n: int, temperature: float, stream: sk.Stream) -> "Ensemble":
        rng = np.random.default_rng(5)
        x0 = rng.normal(0.0, 1.0, n).astype(np.float32)
        v0 = rng.normal(0.0, np.sqrt(temperature), n).astype(np.float32)
        return cls(stream, sk.to_device(x0, stream), sk.to_device(v0, stream),
                   sk.zeros(n, f32, stream), sk.zeros(n, f32, stream))

    def advance(self, prepared: object, dt: float, omega2: float) -> float:
        energy = sk.zeros(1, f32, self.stream)
        leapfrog.launch(prepared, self.stream, self.x, self.v, self.x_next, self.v_next, energy, dt, omega2)
        self.x, self.x_next = self.x_next, self.x
        self.v, self.v_next = self.v_next, self.v
        kinetic = float(energy.to_numpy(self.stream)[0])
        self.history.append(kinetic)
        return kinetic


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    ens = Ensemble.thermal(N_PARTICLES, temperature=0.5, stream=stream)
    prepared = leapfrog.prepare(simt.LaunchConfig1D.for_len(N_PARTICLES, block=BLOCK), dev)
    for step in range(5):
        ke = ens.advance(prepared, dt=0.05, omega2=4.0)
        print(f"step {step}: kinetic energy {ke:.3f}")
    drift = max(ens.history) - min(ens.history)
    print(f"kinetic energy range over the run: {drift:.3f}")


if __name__ == "__main__":
    main()
