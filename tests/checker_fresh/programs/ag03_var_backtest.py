# fresh-expect: E0382 at line 40
# fresh-note: found since: a parameter's item under a literal key (`book["shocks"]`) is one object per key (core keyed_items), so the helper's tile launch moving it again when the loop calls it a second time is E0382
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SCEN_TILE = 64
ASSETS = 8


@tile.kernel
def revalue_kernel(pnl: Partition[f32], shocks: Tensor[f32], positions: Tensor[f32]) -> None:
    block = shocks.load((tile.bid(0), 0), (SCEN_TILE, ASSETS))
    pos = tile.reshape(positions.load((0,), (ASSETS,)), (1, ASSETS))
    pnl.store(tile.sum(block * pos, axis=1))


def load_history(rng: np.random.Generator, days: int) -> np.ndarray:
    vol = np.linspace(0.01, 0.03, ASSETS, dtype=np.float32)
    return (rng.standard_normal((days, ASSETS)) * vol).astype(np.float32)


def daily_positions(rng: np.random.Generator, n_days: int):
    """Yield (day, positions) as the trading desk rebalances."""
    pos = rng.uniform(1e3, 1e4, ASSETS).astype(np.float32)
    for day in range(n_days):
        pos = pos * rng.uniform(0.95, 1.05, ASSETS).astype(np.float32)
        yield day, pos


def revalue(book: dict, positions: np.ndarray, stream: sk.Stream) -> np.ndarray:
    n_scen = book["n_scen"]
    pnl = tile.zeros((n_scen,), f32).partition((SCEN_TILE,))
    pos = tile.from_numpy(positions)
    pnl, _, _ = revalue_kernel(pnl, book["shocks"], pos).sync_on(stream)
    return pnl.unpartition().to_numpy(stream)


def var_99(pnl: np.ndarray) -> float:
    return float(np.quantile(-pnl, 0.99))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(11)
    history = load_history(rng, 512)
    realized = load_history(rng, 6)
    book = {
        "n_scen": history.shape[0],
        "shocks": tile.from_numpy(history).sync_on(stream),
    }
    breaches = 0
    for day, positions in daily_positions(rng, 6):
        pnl = revalue(book, positions, stream)
        limit = var_99(pnl)
        actual_loss = -float(realized[day] @ positions)
        if actual_loss > limit:
            breaches += 1
        print(f"day {day}: VaR99 {limit:8.2f}  realized loss {actual_loss:8.2f}")
    print("breaches:", breaches)


if __name__ == "__main__":
    main()
