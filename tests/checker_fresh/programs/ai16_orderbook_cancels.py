# fresh-expect: clean
# fresh-note: the reduce_depth helper (called through a functools.partial) hands back both the book and the cancels tensor, and the caller rebinds both before passing cancels to the cancelled-value launch.
"""Replaying cancellations on the ask side of a limit order book and tracking the cancelled value per tick.

Each tick a batch of cancel requests (lots per price level) is removed from resting depth by a tile kernel, and the
value of the cancelled liquidity is computed by a second kernel for the market-quality report.
"""

from __future__ import annotations

from functools import partial

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

LEVELS = 48
TILE = 16
TICK_SIZE = 0.01
BEST_ASK = 24.37


@tile.kernel
def remove_lots(depth: Partition[f32], cancels: Tensor[f32]) -> None:
    depth.store(tile.maximum(depth.load() - tile.load_like(cancels, depth), 0.0))


@tile.kernel
def cancelled_value(out: Partition[f32], cancels: Tensor[f32], prices: Tensor[f32]) -> None:
    out.store(tile.load_like(cancels, out) * tile.load_like(prices, out))


def reduce_depth(book: Partition[f32], cancels: Tensor[f32], stream: sk.Stream) -> tuple[Partition[f32], Tensor[f32]]:
    book, cancels = remove_lots(book, cancels).sync_on(stream)
    return book, cancels


def random_cancels(rng: np.random.Generator, depth: np.ndarray) -> np.ndarray:
    far_from_touch = 1.0 - np.exp(-np.arange(LEVELS) / 10.0)
    wanted = rng.binomial(depth.astype(np.int64), 0.05 + 0.1 * far_from_touch).astype(np.float32)
    return np.minimum(wanted, depth).astype(np.float32)


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(23)
    prices_np = (BEST_ASK + TICK_SIZE * np.arange(LEVELS)).astype(np.float32)
    start_depth = rng.integers(50, 200, LEVELS).astype(np.float32)

    book = tile.from_numpy(start_depth).partition((TILE,)).sync_on(stream)
    prices = tile.from_numpy(prices_np).sync_on(stream)
    cancel_now = partial(reduce_depth, stream=stream)

    cancelled_total = 0.0
    for tick in range(5):
        depth_np = book.to_numpy(stream)
        cancel_np = random_cancels(rng, depth_np)
        cancels = tile.from_numpy(cancel_np).sync_on(stream)
        book, cancels = cancel_now(book, cancels)
        value, _, prices = cancelled_value(tile.zeros((LEVELS,), f32).partition((TILE,)), cancels, prices).sync_on(stream)
        tick_value = float(value.unpartition().to_numpy(stream).sum())
        cancelled_total += tick_value
        print(f"tick {tick}: {int(cancel_np.sum()):5d} lots cancelled, value {tick_value:9.2f}")

    final = book.to_numpy(stream)
    print(f"resting depth {int(final.sum())} lots (started {int(start_depth.sum())}); "
          f"cancelled value {cancelled_total:.2f}")


if __name__ == "__main__":
    main()
