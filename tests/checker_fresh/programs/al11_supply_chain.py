# fresh-expect: clean
# fresh-note: weekly inventory simulation for a warehouse network where a shipping tile launch is chained with `then` into a reorder launch, and the inventory and open orders handed back by the chain replace the network's tensors each week.
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

WAREHOUSES = 40
T = 16


@tile.kernel
def ship(inv_next: Partition[f32], inv: Tensor[f32], demand: Tensor[f32], arriving: Tensor[f32]) -> None:
    stock = tile.load_like(inv, inv_next) + tile.load_like(arriving, inv_next)
    inv_next.store(tile.maximum(stock - tile.load_like(demand, inv_next), 0.0))


@tile.kernel
def reorder(orders: Partition[f32], inv: Tensor[f32], target: f32, cap: f32) -> None:
    gap = target - tile.load_like(inv, orders)
    orders.store(tile.minimum(tile.maximum(gap, 0.0), cap))


@dataclass
class Network:
    stream: sk.Stream
    target: float
    truck_cap: float
    inv: object = None
    orders: object = None
    log: list[dict[str, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.inv = tile.full((WAREHOUSES,), self.target, f32)
        self.orders = tile.zeros((WAREHOUSES,), f32)

    def fresh(self) -> object:
        return tile.zeros((WAREHOUSES,), f32).partition((T,))

    def week(self, demand: np.ndarray) -> None:
        shipped = ship(self.fresh(), self.inv, tile.from_numpy(demand), self.orders)
        planned = shipped.then(lambda v: reorder(self.fresh(), v[0].unpartition(), self.target, self.truck_cap))
        orders_p, inv_t, _target, _cap = planned.sync_on(self.stream)
        self.inv = inv_t
        self.orders = orders_p.unpartition()
        inv_np = self.inv.to_numpy(self.stream)
        self.log.append({
            "stock": float(inv_np.sum()),
            "stockouts": float((inv_np == 0).sum()),
            "ordered": float(self.orders.to_numpy(self.stream).sum()),
        })


def demand_stream(weeks: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    base = rng.uniform(20, 60, WAREHOUSES)
    return [(base * rng.uniform(0.6, 1.5, WAREHOUSES)).astype(np.float32) for _ in range(weeks)]


def main() -> None:
    net = Network(sk.Device.cpu().new_stream(), target=120.0, truck_cap=80.0)
    for demand in demand_stream(8, seed=4):
        net.week(demand)
    last = net.log[-1]
    assert 0 <= last["stock"] <= 120.0 * WAREHOUSES
    for w, row in enumerate(net.log):
        print(f"week {w}: stock {row['stock']:.0f}, stockouts {row['stockouts']:.0f}, ordered {row['ordered']:.0f}")


if __name__ == "__main__":
    main()
