# fresh-expect: E0382 at line 48
# fresh-known-miss: cli,mypy dataclasses.replace(state, pos=...) of a frozen dataclass keeps the old vel field, which the previous tile launch moved
"""Ballistic particles: positions drift with their velocities, integrated with a tile kernel.

The simulation state is an immutable dataclass of device tensors; each step produces a new state, and the driver
records the centre of mass every few steps.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

COUNT = 256
TILE = 64


@tile.kernel
def drift(pos: Partition[f32], vel: Tensor[f32], dt: f32) -> None:
    pos.store(pos.load() + tile.load_like(vel, pos) * dt)


@dataclass(frozen=True)
class State:
    pos: Any
    vel: Any
    t: float = 0.0
    steps: int = 0


def initial_state(seed: int, stream: sk.Stream) -> State:
    rng = np.random.default_rng(seed)
    pos = tile.from_numpy(rng.uniform(-1, 1, COUNT).astype(np.float32)).sync_on(stream)
    vel = tile.from_numpy(rng.normal(0.5, 0.1, COUNT).astype(np.float32)).sync_on(stream)
    return State(pos=pos, vel=vel)


def advance(state: State, dt: float, stream: sk.Stream) -> State:
    parts = state.pos.partition((TILE,))
    parts, vel, _ = drift(parts, state.vel, dt).sync_on(stream)
    return dataclasses.replace(state, pos=parts.unpartition(), t=state.t + dt, steps=state.steps + 1)


def centre_of_mass(state: State, stream: sk.Stream) -> float:
    return float(state.pos.to_numpy(stream).mean())


def main() -> None:
    stream = sk.Device.default().new_stream()
    state = initial_state(4, stream)
    track = [(state.t, centre_of_mass(state, stream))]
    while state.steps < 6:
        state = advance(state, 0.05, stream)
        if state.steps % 2 == 0:
            track.append((round(state.t, 2), centre_of_mass(state, stream)))
    for t, com in track:
        print(f"t={t:.2f}  com={com:+.4f}")


if __name__ == "__main__":
    main()
