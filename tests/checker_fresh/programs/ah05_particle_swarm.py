# fresh-expect: E0382 at line 71
# fresh-note: a damped particle simulation keeps the state object of peak compression from an earlier loop iteration, but that state's tensors were moved into the following step's launches, so reporting it later uses moved values.
"""Damped harmonic particle swarm, integrated with symplectic Euler on the tile track.

Particles start spread out, are pulled towards the origin by a spring force and lose energy to friction.
The loop stops once the kinetic energy is small; the state at the moment of peak compression (smallest
spread) is reported along with the final one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 128
BLOCK = 128
STIFFNESS = 4.0
DAMPING = 0.35


@tile.kernel
def kick(vel_out: Partition[f32], vel: Tensor[f32], pos: Tensor[f32], dt: f32, k: f32, gamma: f32) -> None:
    v = tile.load_like(vel, vel_out)
    x = tile.load_like(pos, vel_out)
    vel_out.store(v + dt * (-k * x - gamma * v))


@tile.autotune(configs=[tile.Config(BLOCK=128), tile.Config(BLOCK=256)], key=["pos"], warmup=1, rep=2)
@tile.kernel
def drift(pos_out: Annotated[Partition[f32], tile.Dims(BLOCK)], pos: Tensor[f32], vel: Tensor[f32], dt: f32) -> None:
    pos_out.store(tile.load_like(pos, pos_out) + dt * tile.load_like(vel, pos_out))


@dataclass
class Swarm:
    pos: tile.Tensor
    vel: tile.Tensor
    time: float

    @property
    def size(self) -> int:
        return self.pos.shape[0]


def step(swarm: Swarm, dt: float, stream: sk.Stream) -> Swarm:
    n = swarm.size
    new_vel, _old_vel, pos, *_ = kick(
        tile.zeros((n,), f32).partition((TILE,)), swarm.vel, swarm.pos, dt, STIFFNESS, DAMPING
    ).sync_on(stream)
    new_pos, _old_pos, vel, _ = drift(tile.zeros((n,), f32), pos, new_vel.unpartition(), dt).sync_on(stream)
    return replace(swarm, pos=new_pos, vel=vel, time=swarm.time + dt)


def kinetic_energy(swarm: Swarm, stream: sk.Stream) -> float:
    v = swarm.vel.to_numpy(stream)
    return 0.5 * float(np.dot(v, v))


def spread(swarm: Swarm, stream: sk.Stream) -> float:
    return float(np.std(swarm.pos.to_numpy(stream)))


def describe(label: str, swarm: Swarm, stream: sk.Stream) -> str:
    x = swarm.pos.to_numpy(stream)
    return f"{label}: t={swarm.time:.2f}s spread={x.std():.4f} range=[{x.min():.3f}, {x.max():.3f}]"


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(5)
    n = 1000
    swarm = Swarm(
        pos=tile.from_numpy(rng.uniform(-1.0, 1.0, n).astype(np.float32)).sync_on(stream),
        vel=tile.from_numpy((0.1 * rng.standard_normal(n)).astype(np.float32)).sync_on(stream),
        time=0.0,
    )
    dt, t_max = 0.05, 20.0
    tightest, tightest_spread = swarm, spread(swarm, stream)
    while True:
        swarm = step(swarm, dt, stream)
        s = spread(swarm, stream)
        if s < tightest_spread:
            tightest, tightest_spread = swarm, s
        if kinetic_energy(swarm, stream) < 1e-4 or swarm.time >= t_max:
            break
    print(describe("peak compression", tightest, stream))
    print(describe("final", swarm, stream))


if __name__ == "__main__":
    main()
