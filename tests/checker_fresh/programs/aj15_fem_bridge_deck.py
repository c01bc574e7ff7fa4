# fresh-expect: clean
# fresh-note: Explicit dynamics of a bridge-deck spring chain where a @contextmanager keeps the async internal-force op in flight for its block; the support clamp runs before the block and only a kinetic-energy kernel (reading velocities, which the op does not touch) runs inside it.
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

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


@simt.kernel
@simt.launch_contract(block=64)
def kinetic(v: Slice[f32], energy: DisjointSlice[f32], half_mass: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := energy.get_mut(idx)) is not None:
        e.set(half_mass * v[i] * v[i])


@dataclass
class Deck:
    stream: sk.Stream
    u: sk.DeviceBuffer
    v: sk.DeviceBuffer
    f: sk.DeviceBuffer
    k: sk.DeviceBuffer
    fixed: sk.DeviceBuffer
    load: sk.DeviceBuffer
    energy: sk.DeviceBuffer


def build_deck(nodes: int, dev: sk.Device) -> Deck:
    s = dev.new_stream()
    stiffness = np.full(nodes, 300.0, np.float32)
    stiffness[::16] = 500.0                                  # stay-cable anchors are stiffer
    fixed = np.zeros(nodes, np.float32)
    fixed[[0, nodes // 2, nodes - 1]] = 1.0                  # abutments and the pylon
    load = np.full(nodes, -0.2, np.float32)                  # self weight
    return Deck(s, sk.zeros(nodes, f32, s), sk.zeros(nodes, f32, s), sk.zeros(nodes, f32, s),
                sk.to_device(stiffness, s), sk.to_device(fixed, s), sk.to_device(load, s),
                sk.zeros(nodes, f32, s))


@contextmanager
def forces_in_flight(deck: Deck, prepared: simt.PreparedLaunch) -> Iterator[None]:
    op = internal_force.launch_async(prepared, deck.u, deck.k, deck.load, deck.f)
    try:
        yield
    finally:
        op.sync_on(deck.stream)


def simulate(nodes: int = 192, steps: int = 5) -> list[tuple[float, float]]:
    dev = sk.Device.cpu()
    deck = build_deck(nodes, dev)
    cfg = simt.LaunchConfig1D.for_len(nodes, block=64)
    force_launch = internal_force.prepare(cfg, dev)
    step_launch = integrate.prepare(cfg, dev)
    clamp_launch = clamp_supports.prepare(cfg, dev)
    energy_launch = kinetic.prepare(cfg, dev)
    history = []
    for _ in range(steps):
        clamp_supports.launch(clamp_launch, deck.stream, deck.fixed, deck.u)
        with forces_in_flight(deck, force_launch):
            kinetic.launch(energy_launch, deck.stream, deck.v, deck.energy, 0.5)
        integrate.launch(step_launch, deck.stream, deck.f, deck.v, deck.u, 0.01, 1.0, 0.05)
        ke = float(deck.energy.to_numpy(deck.stream).sum())
        sag = float(deck.u.to_numpy(deck.stream).min())
        history.append((ke, sag))
    return history


if __name__ == "__main__":
    for ke, sag in simulate():
        print(f"kinetic energy {ke:.3e}, max sag {sag:.5f}")
