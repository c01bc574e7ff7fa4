# fresh-expect: W0003 at line 43
# fresh-note: Airport luggage carousel routing; the dispatcher builds each belt's tile routing op before matching on the belt status, and the `jammed` arm continues without running or deleting the op.
"""Bag-to-carousel routing scores for an airport baggage hall."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BAGS = 128


@tile.kernel
def route_cost(cost: Partition[f32], distance: Tensor[f32], weight_kg: Tensor[f32], speed: f32) -> None:
    d = tile.load_like(distance, cost)
    w = tile.load_like(weight_kg, cost)
    cost.store(d / speed + tile.where(w > 23.0, 15.0, 0.0))


@dataclass
class Belt:
    name: str
    status: str
    speed: float
    distance: np.ndarray


class Dispatcher:
    def __init__(self, stream: sk.Stream, weights: np.ndarray) -> None:
        self.stream = stream
        self.weights = weights
        self.log: list[str] = []

    def build(self, belt: Belt) -> sk.DeviceOp:
        cost = tile.zeros((BAGS,), f32).partition((32,))
        return route_cost(cost, tile.from_numpy(belt.distance), tile.from_numpy(self.weights), belt.speed)

    def _note_slow(self, name: str, values: tuple) -> tuple:
        self.log.append(f"{name}: routed at reduced speed")
        return values

    def assign(self, belts: list[Belt]) -> dict[str, np.ndarray]:
        costs = {}
        for belt in belts:
            op = self.build(belt)
            match belt.status:
                case "jammed":
                    self.log.append(f"{belt.name}: jammed, skipped")
                    continue
                case "slow":
                    op = op.then(functools.partial(self._note_slow, belt.name))
                case _:
                    pass
            cost, _, _, _ = op.sync_on(self.stream)
            costs[belt.name] = cost.unpartition().to_numpy(self.stream)
        return costs


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(27)
    weights = rng.uniform(5, 32, BAGS).astype(np.float32)
    belts = [
        Belt("C1", "ok", 0.9, rng.uniform(50, 400, BAGS).astype(np.float32)),
        Belt("C2", "jammed", 0.9, rng.uniform(50, 400, BAGS).astype(np.float32)),
        Belt("C3", "slow", 0.5, rng.uniform(50, 400, BAGS).astype(np.float32)),
    ]
    dispatcher = Dispatcher(stream, weights)
    costs = dispatcher.assign(belts)
    names = list(costs)
    choice = np.argmin(np.stack([costs[n] for n in names]), axis=0)
    for k, name in enumerate(names):
        print(f"{name}: {int((choice == k).sum())} bags")
    print("\n".join(dispatcher.log))


if __name__ == "__main__":
    main()
