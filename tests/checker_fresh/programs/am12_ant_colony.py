# fresh-expect: clean
# fresh-note: ant colony optimisation for a small travelling-salesman instance with a tile pheromone update; the convergence check keeps host snapshots (to_numpy, a borrow) of the last pheromone tensors in a bounded deque, so the update launch moving the tensor leaves the history intact.
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CITIES = 16
ANTS = 12
RHO = 0.2


@tile.kernel
def evaporate_deposit(trail: Partition[f32], old: Tensor[f32], deposits: Tensor[f32], rho: f32) -> None:
    kept = tile.load_like(old, trail) * (1.0 - rho)
    trail.store(tile.maximum(kept + tile.load_like(deposits, trail), 1e-3))


@dataclass
class Tour:
    order: list[int]
    length: float


class Colony:
    def __init__(self, stream: sk.Stream, coords: np.ndarray, seed: int) -> None:
        self.stream = stream
        self.rng = np.random.default_rng(seed)
        diff = coords[:, None, :] - coords[None, :, :]
        self.dist = np.sqrt((diff**2).sum(-1)) + np.eye(CITIES)
        self.trail = tile.full((CITIES, CITIES), 1.0, f32)
        self.history: deque = deque(maxlen=3)
        self.best: Tour | None = None

    def walk(self, tau: np.ndarray) -> Tour:
        start = int(self.rng.integers(CITIES))
        order, left = [start], set(range(CITIES)) - {start}
        while left:
            here, cand = order[-1], np.array(sorted(left))
            score = tau[here, cand] * (1.0 / self.dist[here, cand]) ** 2
            nxt = int(self.rng.choice(cand, p=score / score.sum()))
            order.append(nxt)
            left.discard(nxt)
        length = float(sum(self.dist[a, b] for a, b in zip(order, order[1:] + order[:1])))
        return Tour(order, length)

    def deposits(self, tours: list[Tour]) -> np.ndarray:
        dep = np.zeros((CITIES, CITIES), np.float32)
        for t in tours:
            for a, b in zip(t.order, t.order[1:] + t.order[:1]):
                dep[a, b] += 1.0 / t.length
                dep[b, a] += 1.0 / t.length
        return dep

    def pheromone(self) -> np.ndarray:
        if isinstance(self.trail, sk.DeviceOp):
            self.trail = self.trail.sync_on(self.stream)
        return self.trail.to_numpy(self.stream)

    def converged(self, tol: float = 1e-3) -> bool:
        if len(self.history) < 2:
            return False
        latest, previous = self.history[-1], self.history[-2]
        change = np.abs(latest - previous).max()
        return bool(change < tol)

    def iterate(self) -> Tour:
        tau = self.pheromone()
        tours = [self.walk(tau) for _ in range(ANTS)]
        out = tile.zeros((CITIES, CITIES), f32).partition((8, 8))
        dep = tile.from_numpy(self.deposits(tours))
        out, *_ = evaporate_deposit(out, self.trail, dep, RHO).sync_on(self.stream)
        self.trail = out.unpartition()
        self.history.append(self.trail.to_numpy(self.stream))
        best = min(tours, key=lambda t: t.length)
        if self.best is None or best.length < self.best.length:
            self.best = best
        return best


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(21)
    coords = rng.uniform(0.0, 1.0, (CITIES, 2))
    colony = Colony(stream, coords, seed=4)
    lengths = []
    for _ in range(6):
        lengths.append(colony.iterate().length)
        if colony.converged():
            break
    assert colony.best is not None and colony.best.length <= lengths[0] + 1e-9
    assert sorted(colony.best.order) == list(range(CITIES))
    print(f"best tour {colony.best.length:.3f} after {len(lengths)} iterations")


if __name__ == "__main__":
    main()
