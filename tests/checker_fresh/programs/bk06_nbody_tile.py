# fresh-expect: clean
# fresh-note: Twin of bk05: `kinetic_energy()` stores every tensor `sync_on` hands back (mass included) on the bodies record, so later `accel` launches read live values.
"""Direct-sum 2-D N-body integration (kick-drift-kick) in the Tile track, with periodic energy diagnostics."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

N = 64
T = 16


@tile.kernel
def accel(ax: Partition[f32], ay: Partition[f32], x: Tensor[f32], y: Tensor[f32], m: Tensor[f32],
          eps2: f32) -> None:
    xi = tile.reshape(tile.load_like(x, ax), (T, 1))
    yi = tile.reshape(tile.load_like(y, ax), (T, 1))
    xj = tile.reshape(x.load((0,), (N,)), (1, N))
    yj = tile.reshape(y.load((0,), (N,)), (1, N))
    mj = tile.reshape(m.load((0,), (N,)), (1, N))
    dx = xj - xi
    dy = yj - yi
    inv = tile.rsqrt(dx * dx + dy * dy + eps2)
    w = mj * inv * inv * inv
    ax.store(tile.sum(dx * w, axis=1))
    ay.store(tile.sum(dy * w, axis=1))


@tile.kernel
def axpy(out: Partition[f32], a: Tensor[f32], b: Tensor[f32], h: f32) -> None:
    out.store(tile.load_like(a, out) + h * tile.load_like(b, out))


@tile.kernel
def kinetic(e: Partition[f32], vx: Tensor[f32], vy: Tensor[f32], m: Tensor[f32]) -> None:
    u = tile.load_like(vx, e)
    v = tile.load_like(vy, e)
    e.store(0.5 * tile.load_like(m, e) * (u * u + v * v))


@dataclass
class Bodies:
    x: Tensor
    y: Tensor
    vx: Tensor
    vy: Tensor
    m: Tensor


def fresh() -> sk.DeviceOp:
    return tile.zeros((N,), f32).partition((T,))


class NBody:
    def __init__(self, bodies: Bodies, stream: sk.Stream, dt: float = 1e-3, eps2: float = 1e-2) -> None:
        self.b = bodies
        self.stream = stream
        self.dt = dt
        self.eps2 = eps2

    def _accelerations(self) -> tuple[Tensor, Tensor]:
        b = self.b
        ax, ay, b.x, b.y, b.m, _ = accel(fresh(), fresh(), b.x, b.y, b.m, self.eps2).sync_on(self.stream)
        return ax.unpartition(), ay.unpartition()

    def _update(self, base: Tensor, rate: Tensor, h: float) -> tuple[Tensor, Tensor]:
        out, _, rate, _ = axpy(fresh(), base, rate, h).sync_on(self.stream)
        return out.unpartition(), rate

    def step(self) -> None:
        b, half = self.b, 0.5 * self.dt
        ax, ay = self._accelerations()
        b.vx, _ = self._update(b.vx, ax, half)
        b.vy, _ = self._update(b.vy, ay, half)
        b.x, b.vx = self._update(b.x, b.vx, self.dt)
        b.y, b.vy = self._update(b.y, b.vy, self.dt)
        ax, ay = self._accelerations()
        b.vx, _ = self._update(b.vx, ax, half)
        b.vy, _ = self._update(b.vy, ay, half)

    def kinetic_energy(self) -> float:
        b = self.b
        e, b.vx, b.vy, b.m = kinetic(fresh(), b.vx, b.vy, b.m).sync_on(self.stream)
        return float(e.unpartition().to_numpy(self.stream).sum())


def make_bodies(stream: sk.Stream, seed: int = 3) -> Bodies:
    rng = np.random.default_rng(seed)
    pos = rng.uniform(-1.0, 1.0, (2, N)).astype(np.float32)
    vel = (0.1 * rng.standard_normal((2, N))).astype(np.float32)
    mass = np.full(N, 1.0 / N, np.float32)
    x, y, vx, vy, m = (tile.from_numpy(a).sync_on(stream) for a in (pos[0], pos[1], vel[0], vel[1], mass))
    return Bodies(x, y, vx, vy, m)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    sim = NBody(make_bodies(stream), stream)
    energies = []
    for step in range(12):
        sim.step()
        if step % 4 == 0:
            energies.append(sim.kinetic_energy())
    print("kinetic energy:", [round(e, 5) for e in energies])


if __name__ == "__main__":
    main()
