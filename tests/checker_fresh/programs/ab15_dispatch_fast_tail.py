# fresh-expect: E0133 at line 43
# _run_fast (picked by getattr dispatch) launches the ragged tail with launch_unchecked after its `with simt.unsafe():` block has already ended
"""Particle integrator with a selectable launch path: checked launches, or unchecked ones in benchmark mode."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PARTICLES = 1000
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def integrate(pos: Slice[f32], vel: Slice[f32], out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(pos[i] + dt * vel[i])


class Integrator:
    def __init__(self, dev: sk.Device, stream: sk.Stream, mode: str = "safe") -> None:
        self.dev = dev
        self.stream = stream
        self.step = getattr(self, f"_run_{mode}")

    def _run_safe(self, pos: sk.DeviceBuffer, vel: sk.DeviceBuffer, out: sk.DeviceBuffer, dt: float) -> None:
        prepared = integrate.prepare(simt.LaunchConfig1D.for_len(len(out), block=BLOCK), self.dev)
        integrate.launch(prepared, self.stream, pos, vel, out, dt)

    def _run_fast(self, pos: sk.DeviceBuffer, vel: sk.DeviceBuffer, out: sk.DeviceBuffer, dt: float) -> None:
        full = (len(out) // BLOCK) * BLOCK
        with simt.unsafe():
            body = simt.LaunchConfig1D(grid=full // BLOCK, block=BLOCK)
            integrate.launch_unchecked(body, self.stream, pos[:full], vel[:full], out[:full], dt)
        if full < len(out):
            tail = simt.LaunchConfig1D(grid=1, block=BLOCK)
            integrate.launch_unchecked(tail, self.stream, pos[full:], vel[full:], out[full:], dt)


def simulate(mode: str, steps: int = 3) -> np.ndarray:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    pos = sk.to_device(rng.random(PARTICLES).astype(np.float32), stream)
    vel = sk.to_device(rng.standard_normal(PARTICLES).astype(np.float32), stream)
    nxt = sk.zeros(PARTICLES, f32, stream)
    integ = Integrator(dev, stream, mode)
    for _ in range(steps):
        integ.step(pos, vel, nxt, 0.01)
        pos, nxt = nxt, pos
    return pos.to_numpy(stream)


def main() -> None:
    safe = simulate("safe")
    fast = simulate("fast")
    print("max deviation between paths:", float(np.abs(safe - fast).max()))


if __name__ == "__main__":
    main()
