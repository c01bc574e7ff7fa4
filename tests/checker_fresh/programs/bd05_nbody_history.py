# fresh-expect: E0382 at line 64
# fresh-note: A 1-D softened self-gravity n-body integrator in the tile track appends the live position tensor to a trajectory list instead of a host copy, so the energy diagnostic after the run reads handles that later kick-drift launches already moved.
"""Leapfrog n-body on a line (a toy sheet model), tile kernels; diagnostics on the host."""

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256
TILE = 64
SOFTENING = 0.05


@tile.kernel
def accelerations(acc: Partition[f32], pos: Tensor[f32], mass: Tensor[f32]) -> None:
    mine = tile.reshape(tile.load_like(pos, acc), (TILE, 1))
    others = tile.reshape(pos.load((0,), (N,)), (1, N))
    m = tile.reshape(mass.load((0,), (N,)), (1, N))
    d = others - mine
    inv = tile.rsqrt(d * d + SOFTENING)
    acc.store(tile.sum(d * inv * inv * inv * m, axis=1))


@tile.kernel
def kick_drift(vel: Partition[f32], pos: Partition[f32], acc: Tensor[f32], dt: f32) -> None:
    v = vel.load() + tile.load_like(acc, vel) * dt
    vel.store(v)
    pos.store(pos.load() + v * dt)


class LineSystem:
    def __init__(self, pos0: np.ndarray, mass: np.ndarray, stream: sk.Stream) -> None:
        self.stream = stream
        self.pos = tile.from_numpy(pos0.astype(np.float32)).sync_on(stream)
        self.vel = tile.zeros((N,), f32).sync_on(stream)
        self.mass = tile.from_numpy(mass.astype(np.float32)).sync_on(stream)

    def step(self, dt: float) -> None:
        acc_parts = tile.zeros((N,), f32).partition((TILE,))
        acc_parts, self.pos, self.mass = accelerations(acc_parts, self.pos, self.mass).sync_on(self.stream)
        acc = acc_parts.unpartition()
        op = kick_drift(self.vel.partition((TILE,)), self.pos.partition((TILE,)), acc, dt)
        vel_parts, pos_parts, _acc, _dt = op.sync_on(self.stream)
        self.vel, self.pos = vel_parts.unpartition(), pos_parts.unpartition()


def spread(positions: np.ndarray, masses: np.ndarray) -> float:
    centre = np.average(positions, weights=masses)
    return float(np.sqrt(np.average((positions - centre) ** 2, weights=masses)))


def main() -> None:
    rng = np.random.default_rng(3)
    stream = sk.Device.default().new_stream()
    masses = rng.uniform(0.5, 1.5, N) / N
    system = LineSystem(rng.normal(0.0, 1.0, N), masses, stream)
    trajectory = []
    for step in range(12):
        system.step(0.01)
        if step % 4 == 0:
            trajectory.append(system.pos)
    widths = [spread(frame.to_numpy(stream), masses) for frame in trajectory]
    print("rms width:", [round(w, 4) for w in widths])


if __name__ == "__main__":
    main()
