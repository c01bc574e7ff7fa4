# fresh-expect: W0003 at line 43
# fresh-note: supply-chain week loop that eagerly builds an expedite (rush order) tile launch from an inventory snapshot every week but only runs it in weeks with stockouts, so in quiet weeks the lazy op is rebound and dropped without ever running.
from __future__ import annotations
import numpy as np


import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SITES = 32
T = 8


@tile.kernel
def consume(inv_next: Partition[f32], inv: Tensor[f32], demand: Tensor[f32], restock: f32) -> None:
    left = tile.load_like(inv, inv_next) + restock - tile.load_like(demand, inv_next)
    inv_next.store(tile.maximum(left, 0.0))


@tile.kernel
def expedite(rush: Partition[f32], snapshot: Tensor[f32], safety: f32) -> None:
    level = tile.load_like(snapshot, rush)
    rush.store(tile.where(level < safety, safety - level, 0.0))


class Planner:
    def __init__(self, stream: sk.Stream, safety: float) -> None:
        self.stream = stream
        self.safety = safety
        self.inv = tile.full((SITES,), 50.0, f32)
        self.rush_total = 0.0

    def consume_week(self, demand: np.ndarray, restock: float) -> np.ndarray:
        out = tile.zeros((SITES,), f32).partition((T,))
        out, _old, _demand, _r = consume(out, self.inv, tile.from_numpy(demand), restock).sync_on(self.stream)
        self.inv = out.unpartition()
        return self.inv.to_numpy(self.stream)

    def rush_order(self, level: np.ndarray):
        snapshot = tile.from_numpy(level)
        return expedite(tile.zeros((SITES,), f32).partition((T,)), snapshot, self.safety)

    def simulate(self, demands: list[np.ndarray]) -> list[int]:
        stockouts = []
        for week, demand in enumerate(demands):
            level = self.consume_week(demand, restock=55.0 if week % 3 == 2 else 20.0)
            rush = self.rush_order(level)  # prepared up front so it is ready when needed
            empty = int((level == 0.0).sum())
            stockouts.append(empty)
            if empty:
                rush_p, _snap, _s = rush.sync_on(self.stream)
                self.rush_total += float(rush_p.unpartition().to_numpy(self.stream).sum())
        return stockouts


def main() -> None:
    rng = np.random.default_rng(9)
    demands = [rng.uniform(5, 52, SITES).astype(np.float32) for _ in range(6)]
    planner = Planner(sk.Device.cpu().new_stream(), safety=20.0)
    stockouts = planner.simulate(demands)
    print("stockouts per week:", stockouts, "rush units:", round(planner.rush_total, 1))


if __name__ == "__main__":
    main()
