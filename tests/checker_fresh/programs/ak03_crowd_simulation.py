# fresh-expect: E0382 at line 67
# fresh-note: Social-force crowd stepping in the tile track where the congestion log reads crowd.pos after the pending steer launch has taken ownership of it.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

AGENTS = 192
TILE = (64, 2)
MAX_SPEED = 1.4


@tile.kernel
def steer(vel_out: Partition[f32], pos: Tensor[f32], goal: Tensor[f32], vel: Tensor[f32], tau: f32) -> None:
    p = tile.load_like(pos, vel_out)
    g = tile.load_like(goal, vel_out)
    v = tile.load_like(vel, vel_out)
    d = g - p
    dist = tile.sqrt(tile.sum(d * d, axis=1, keepdims=True) + 1e-6)
    desired = d / dist * MAX_SPEED
    nv = v + (desired - v) / tau
    speed = tile.sqrt(tile.sum(nv * nv, axis=1, keepdims=True) + 1e-6)
    vel_out.store(nv * tile.minimum(speed, MAX_SPEED) / speed)


@tile.kernel
def integrate(pos_out: Partition[f32], pos: Tensor[f32], vel: Tensor[f32], dt: f32) -> None:
    pos_out.store(tile.load_like(pos, pos_out) + tile.load_like(vel, pos_out) * dt)


@dataclass
class Crowd:
    pos: tile.Tensor
    vel: tile.Tensor
    goal: tile.Tensor


def spawn(stream: sk.Stream, rng: np.random.Generator) -> Crowd:
    start = rng.uniform(0.0, 5.0, (AGENTS, 2)).astype(np.float32)
    exits = np.tile(np.array([[20.0, 2.5]], np.float32), (AGENTS, 1))
    pos, vel, goal = (
        tile.from_numpy(start).zip(tile.zeros((AGENTS, 2), f32), tile.from_numpy(exits)).sync_on(stream)
    )
    return Crowd(pos, vel, goal)


def congestion(pos_host: np.ndarray, cell: float = 1.0) -> int:
    cells = np.floor(pos_host / cell).astype(np.int64)
    _, counts = np.unique(cells, axis=0, return_counts=True)
    return int(counts.max())


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    crowd = spawn(stream, np.random.default_rng(7))
    dt, log = 0.25, []
    for step in range(6):
        new_vel = tile.zeros((AGENTS, 2), f32).partition(TILE)
        pending = steer(new_vel, crowd.pos, crowd.goal, crowd.vel, 2.0)
        if step % 2 == 0:
            log.append((step, congestion(crowd.pos.to_numpy(stream))))
        new_vel, crowd.pos, crowd.goal, _old_vel, _tau = pending.sync_on(stream)
        crowd.vel = new_vel.unpartition()
        new_pos = tile.zeros((AGENTS, 2), f32).partition(TILE)
        new_pos, _old_pos, crowd.vel, _dt = integrate(new_pos, crowd.pos, crowd.vel, dt).sync_on(stream)
        crowd.pos = new_pos.unpartition()
    final = crowd.pos.to_numpy(stream)
    print("congestion log:", log)
    print(f"mean x after {dt * 6:.1f}s: {final[:, 0].mean():.2f}")


if __name__ == "__main__":
    main()
