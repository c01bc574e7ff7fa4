# fresh-expect: clean
# fresh-note: A damped mass-spring chain keeps its positions, velocities and scratch buffers in a dataclass built by a classmethod, and each semi-implicit Euler step swaps the double-buffered fields with dataclasses.replace.
"""Mass-spring chain with fixed ends, semi-implicit Euler; a port of a numpy teaching script."""
import dataclasses
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def spring_force(pos: Slice[f32], acc: DisjointSlice[f32], k: f32, rest: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(pos)
    if (a := acc.get_mut(idx)) is not None:
        if i == 0 or i == n - 1:
            a.set(0.0)
        else:
            a.set(k * ((pos[i + 1] - pos[i] - rest) - (pos[i] - pos[i - 1] - rest)))


@simt.kernel
@simt.launch_contract(block=64)
def integrate(pos: Slice[f32], vel: Slice[f32], acc: Slice[f32], pos_out: DisjointSlice[f32], vel_out: DisjointSlice[f32], dt: f32, damping: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(vel):
        return
    v = (vel[i] + dt * acc[i]) * damping
    if (p := pos_out.get_mut(idx)) is not None:
        p.set(pos[i] + dt * v)
    j = thread.index_1d()
    if (q := vel_out.get_mut(j)) is not None:
        q.set(v)


@dataclass(frozen=True)
class Chain:
    pos: sk.DeviceBuffer
    vel: sk.DeviceBuffer
    pos_next: sk.DeviceBuffer
    vel_next: sk.DeviceBuffer
    acc: sk.DeviceBuffer

    @classmethod
    def at_rest(cls, n: int, spacing: float, kick: np.ndarray, stream: sk.Stream) -> "Chain":
        pos = sk.to_device((np.arange(n) * spacing).astype(np.float32), stream)
        vel = sk.to_device(kick.astype(np.float32), stream)
        return cls(pos, vel, sk.zeros(n, f32, stream), sk.zeros(n, f32, stream), sk.zeros(n, f32, stream))


def step(chain: Chain, plans, stream: sk.Stream, dt: float) -> Chain:
    force_plan, move_plan = plans
    spring_force.launch(force_plan, stream, chain.pos, chain.acc, 40.0, 1.0)
    integrate.launch(move_plan, stream, chain.pos, chain.vel, chain.acc, chain.pos_next, chain.vel_next, dt, 0.995)
    return dataclasses.replace(chain, pos=chain.pos_next, vel=chain.vel_next, pos_next=chain.pos, vel_next=chain.vel)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 96
    kick = np.zeros(n)
    kick[n // 2] = 1.0
    chain = Chain.at_rest(n, 1.0, kick, stream)
    config = simt.LaunchConfig1D.for_len(n, block=64)
    plans = (spring_force.prepare(config, dev), integrate.prepare(config, dev))
    for _ in range(150):
        chain = step(chain, plans, stream, 0.01)
    pos = chain.pos.to_numpy(stream)
    assert pos[0] == 0.0 and pos[-1] == n - 1
    assert np.all(np.diff(pos) > 0.5), "springs must not cross"
    print("max displacement:", float(np.abs(pos - np.arange(n)).max()))


if __name__ == "__main__":
    main()
