# fresh-expect: clean
# fresh-note: Evacuation crowd stepped by a generator that chains steer and integrate through then(), reads positions only after sync_on hands them back, and shares the read-only exit targets.
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

AGENTS = 128
TILE = (32, 2)
MAX_SPEED = 1.3


@tile.kernel
def steer(vel_out: Partition[f32], pos: Tensor[f32], goal: Tensor[f32], vel: Tensor[f32], tau: f32) -> None:
    p = tile.load_like(pos, vel_out)
    d = tile.load_like(goal, vel_out) - p
    dist = tile.sqrt(tile.sum(d * d, axis=1, keepdims=True) + 1e-6)
    v = tile.load_like(vel, vel_out)
    nv = v + (d / dist * MAX_SPEED - v) / tau
    speed = tile.sqrt(tile.sum(nv * nv, axis=1, keepdims=True) + 1e-6)
    vel_out.store(nv * tile.minimum(speed, MAX_SPEED) / speed)


@tile.kernel
def integrate(pos_out: Partition[f32], pos: Tensor[f32], vel: Tensor[f32], dt: f32) -> None:
    pos_out.store(tile.load_like(pos, pos_out) + tile.load_like(vel, pos_out) * dt)


class Evacuation:
    def __init__(self, stream: sk.Stream, start: np.ndarray, exits: np.ndarray) -> None:
        self.stream = stream
        self.goal = tile.from_numpy(exits).shared()      # read by every step, never written
        self.pos, self.vel = tile.from_numpy(start).zip(tile.zeros(start.shape, f32)).sync_on(stream)

    def _step(self, dt: float) -> None:
        new_vel = tile.zeros((AGENTS, 2), f32).partition(TILE)
        op = steer(new_vel, self.pos, self.goal, self.vel, 2.0).then(
            lambda res: integrate(tile.zeros((AGENTS, 2), f32).partition(TILE), res[1], res[0].unpartition(), dt)
        )
        new_pos, _old_pos, vel, _dt = op.sync_on(self.stream)
        self.pos, self.vel = new_pos.unpartition(), vel

    def run(self, steps: int, dt: float) -> Iterator[np.ndarray]:
        for _ in range(steps):
            self._step(dt)
            yield self.pos.to_numpy(self.stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(3)
    start = rng.uniform(0.0, 4.0, (AGENTS, 2)).astype(np.float32)
    exits = np.where(rng.random((AGENTS, 1)) < 0.5, [[15.0, 0.0]], [[15.0, 4.0]]).astype(np.float32)
    sim = Evacuation(stream, start, exits)
    escaped = []
    for snapshot in sim.run(steps=5, dt=0.5):
        remaining = np.linalg.norm(snapshot - exits, axis=1)
        escaped.append(int((remaining < 10.0).sum()))
    print("agents within 10 m of an exit per step:", escaped)


if __name__ == "__main__":
    main()
