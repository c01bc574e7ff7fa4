# fresh-expect: clean
# fresh-note: dairy herd milk yield over a lactation week; every tile launch's handed-back tensors are rebound (into the herd object too) and a shared price op is read by each day's revenue launch.
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

COWS = 128
TILE = (32,)


@tile.kernel
def daily_yield(milk: Partition[f32], base: Tensor[f32], feed: Tensor[f32], day: f32) -> None:
    b = tile.load_like(base, milk)
    f = tile.load_like(feed, milk)
    milk.store(b * (1.0 + 0.08 * f) * tile.exp(tile.full(milk.tile_shape, -0.004 * day, f32)))


@tile.kernel
def revenue(out: Partition[f32], milk: Tensor[f32], price: Tensor[f32]) -> None:
    out.store(tile.load_like(milk, out) * tile.load_like(price, out))


@dataclass
class Herd:
    base: Tensor
    feed: Tensor
    ledger: list[float] = field(default_factory=list)


def make_herd(stream: sk.Stream, rng: np.random.Generator) -> Herd:
    base = tile.from_numpy(rng.uniform(22.0, 38.0, COWS).astype(np.float32)).sync_on(stream)
    feed = tile.from_numpy(rng.uniform(0.0, 3.0, COWS).astype(np.float32)).sync_on(stream)
    return Herd(base, feed)


def run_week(herd: Herd, stream: sk.Stream, price: sk.SharedDeviceOp) -> None:
    milk_part = tile.zeros((COWS,), f32).partition(TILE).sync_on(stream)
    rev_part = tile.zeros((COWS,), f32).partition(TILE).sync_on(stream)
    base, feed = herd.base, herd.feed
    for day in range(7):
        milk_part, base, feed, _ = daily_yield(milk_part, base, feed, float(day)).sync_on(stream)
        milk = milk_part.unpartition()
        rev_part, milk, _ = revenue(rev_part, milk, price).sync_on(stream)
        herd.ledger.append(float(rev_part.to_numpy(stream).sum()))
        milk_part = milk.partition(TILE)
    herd.base, herd.feed = base, feed


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(5)
    herd = make_herd(stream, rng)
    price = tile.full((COWS,), 0.42, f32).shared()
    run_week(herd, stream, price)
    run_week(herd, stream, price)
    weekly = np.array(herd.ledger).reshape(2, 7).sum(axis=1)
    print("weekly revenue:", np.round(weekly, 2))
    print("base yield mean:", round(float(herd.base.to_numpy(stream).mean()), 2))


if __name__ == "__main__":
    main()
