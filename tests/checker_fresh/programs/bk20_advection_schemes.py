# fresh-expect: clean
# fresh-note: Twin of bk19: `_history()` always returns the separate `self.u_prev` tensor (the upwind scheme ignores it through `theta = 0`), so each `advect` launch moves three distinct tensors.
"""Periodic 1-D linear advection of a square wave with an upwind or a leapfrog scheme (Tile track).

Both schemes share one kernel that blends the upwind update and the leapfrog update with `theta`; the leapfrog
needs the previous time level, the upwind scheme does not.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

T = 32


class Order(enum.IntEnum):
    FIRST = 1
    SECOND = 2


@dataclass(frozen=True)
class AdvectionConfig:
    n: int = 128
    courant: float = 0.4
    steps: int = 40
    order: Order = Order.FIRST


@tile.kernel
def advect(z: Partition[f32], u: Tensor[f32], u_prev: Tensor[f32], c: f32, theta: f32) -> None:
    n = u.shape[0]
    i = tile.iota(T, i32) + tile.bid(0) * T
    left = tile.gather(u, (i - 1 + n) % n)
    right = tile.gather(u, (i + 1) % n)
    cur = tile.load_like(u, z)
    upwind = cur - c * (cur - left)
    leap = tile.load_like(u_prev, z) - c * (right - left)
    z.store((1.0 - theta) * upwind + theta * leap)


class Advection:
    def __init__(self, cfg: AdvectionConfig, stream: sk.Stream) -> None:
        self.cfg, self.stream = cfg, stream
        x = np.arange(cfg.n) / cfg.n
        wave = ((x > 0.2) & (x < 0.4)).astype(np.float32)
        both = sk.zip(tile.from_numpy(wave), tile.from_numpy(wave), tile.zeros((cfg.n,), f32))
        self.u, self.u_prev, self.spare = both.sync_on(stream)
        self.mass0 = float(wave.sum())

    @property
    def theta(self) -> float:
        return 1.0 if self.cfg.order is Order.SECOND else 0.0

    def _history(self) -> Tensor:
        # the upwind scheme ignores the previous level (theta = 0), but it must still be its own tensor
        return self.u_prev

    def step(self) -> None:
        prev = self._history()
        z, u, old, *_ = advect(self.spare.partition((T,)), self.u, prev,
                               self.cfg.courant, self.theta).sync_on(self.stream)
        self.spare, self.u_prev, self.u = old, u, z.unpartition()

    def mass(self) -> float:
        return float(self.u.to_numpy(self.stream).sum())


def simulate(cfg: AdvectionConfig, stream: sk.Stream) -> tuple[int, float]:
    sim = Advection(cfg, stream)
    done = 0
    for done in range(1, cfg.steps + 1):
        sim.step()
        if abs(sim.mass() - sim.mass0) > 1e-2 * sim.mass0:
            break
    return done, sim.mass()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    for order in (Order.FIRST, Order.SECOND):
        steps, mass = simulate(AdvectionConfig(order=order), stream)
        print(f"order {int(order)}: {steps} steps, mass {mass:.4f}")


if __name__ == "__main__":
    main()
