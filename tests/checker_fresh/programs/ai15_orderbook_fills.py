# fresh-expect: E0382 at line 63
# fresh-note: the settle helper (called through a functools.partial) moves the fills tensor into apply_fills and keeps only the book, and the caller then passes the same fills tensor to the notional launch.
"""Replaying trades against one side of a limit order book: depth per price level after each batch of fills.

Each tick a batch of fills (lots per price level) is taken out of the resting depth by a tile kernel, and the
traded notional per level is computed by a second kernel for the tick's P&L report.
"""

from __future__ import annotations

from functools import partial

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

LEVELS = 40
TILE = 16
TICK_SIZE = 0.25
BEST_BID = 101.5


@tile.kernel
def apply_fills(depth: Partition[f32], fills: Tensor[f32]) -> None:
    depth.store(tile.maximum(depth.load() - tile.load_like(fills, depth), 0.0))


@tile.kernel
def notional(out: Partition[f32], fills: Tensor[f32], prices: Tensor[f32]) -> None:
    out.store(tile.load_like(fills, out) * tile.load_like(prices, out))


def settle(book: Partition[f32], fills: Tensor[f32], stream: sk.Stream) -> Partition[f32]:
    book, _ = apply_fills(book, fills).sync_on(stream)
    return book


def random_fills(rng: np.random.Generator, depth: np.ndarray) -> np.ndarray:
    aggressiveness = np.exp(-np.arange(LEVELS) / 4.0)
    wanted = rng.poisson(6.0 * aggressiveness).astype(np.float32)
    return np.minimum(wanted, depth).astype(np.float32)


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(17)
    prices_np = (BEST_BID - TICK_SIZE * np.arange(LEVELS)).astype(np.float32)
    start_depth = rng.integers(20, 60, LEVELS).astype(np.float32)

    book = tile.from_numpy(start_depth).partition((TILE,)).sync_on(stream)
    prices = tile.from_numpy(prices_np).sync_on(stream)
    settle_now = partial(settle, stream=stream)

    traded_total = 0.0
    for tick in range(5):
        depth_np = book.to_numpy(stream)
        fill_np = random_fills(rng, depth_np)
        fills = tile.from_numpy(fill_np).sync_on(stream)
        book = settle_now(book, fills)
        value, _, prices = notional(tile.zeros((LEVELS,), f32).partition((TILE,)), fills, prices).sync_on(stream)
        tick_notional = float(value.unpartition().to_numpy(stream).sum())
        traded_total += tick_notional
        print(f"tick {tick}: {int(fill_np.sum()):4d} lots traded, notional {tick_notional:10.2f}")

    final = book.to_numpy(stream)
    print(f"resting depth {int(final.sum())} lots (started {int(start_depth.sum())}); "
          f"total notional {traded_total:.2f}")


if __name__ == "__main__":
    main()
