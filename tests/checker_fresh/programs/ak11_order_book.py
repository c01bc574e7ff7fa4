# fresh-expect: E0133 at line 58
# fresh-note: Limit-order-book depth aggregation whose hot replay path calls launch_unchecked in a helper, trusting the caller's with simt.unsafe() block, which does not cover code in another function.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread

LEVELS = 64
BASE_TICK = 10_000


@simt.kernel
@simt.launch_contract(block=64)
def book_depth(ticks: Slice[i32], qty: Slice[i32], side: Slice[i32], bids: AtomicSlice[i32],
               asks: AtomicSlice[i32], base: i32) -> None:
    i = thread.index_1d().get()
    if i < len(ticks):
        level = ticks[i] - base
        if 0 <= level < len(bids):
            if side[i] > 0:
                bids.fetch_add(level, qty[i])
            else:
                asks.fetch_add(level, qty[i])


@dataclass
class OrderBatch:
    ticks: np.ndarray
    qty: np.ndarray
    side: np.ndarray

    def upload(self, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer, sk.DeviceBuffer]:
        return (sk.to_device(self.ticks, stream), sk.to_device(self.qty, stream), sk.to_device(self.side, stream))


class DepthBook:
    def __init__(self, dev: sk.Device, stream: sk.Stream, max_batch: int) -> None:
        self.dev, self.stream = dev, stream
        self.bids = sk.zeros(LEVELS, i32, stream)
        self.asks = sk.zeros(LEVELS, i32, stream)
        self.checked = book_depth.prepare(simt.LaunchConfig1D.for_len(max_batch, block=64), dev)
        self.raw_cfg = simt.LaunchConfig1D.for_len(max_batch, block=64)

    def apply(self, batch: OrderBatch) -> None:
        t, q, s = batch.upload(self.stream)
        book_depth.launch(self.checked, self.stream, t, q, s, self.bids, self.asks, BASE_TICK)

    def _replay_fast(self, batches: list[OrderBatch]) -> None:
        # the contract was validated once in __init__; skip re-validation per batch
        for batch in batches:
            t, q, s = batch.upload(self.stream)
            book_depth.launch_unchecked(self.raw_cfg, self.stream, t, q, s, self.bids, self.asks, BASE_TICK)

    def replay(self, batches: list[OrderBatch]) -> None:
        with simt.unsafe():
            self._replay_fast(batches)

    def quotes(self) -> tuple[int, int]:
        bids = self.bids.to_numpy(self.stream)
        asks = self.asks.to_numpy(self.stream)
        best_bid = BASE_TICK + int(np.nonzero(bids)[0].max())
        best_ask = BASE_TICK + int(np.nonzero(asks)[0].min())
        return best_bid, best_ask


def random_batch(rng: np.random.Generator, n: int) -> OrderBatch:
    side = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int32)
    offset = rng.integers(1, 20, n)
    ticks = (BASE_TICK + 32 - side * offset).astype(np.int32)
    return OrderBatch(ticks, rng.integers(1, 100, n).astype(np.int32), side)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    book = DepthBook(dev, stream, max_batch=256)
    book.apply(random_batch(rng, 256))
    book.replay([random_batch(rng, 256) for _ in range(4)])
    bid, ask = book.quotes()
    print(f"best bid {bid} best ask {ask} spread {ask - bid} ticks")


if __name__ == "__main__":
    main()
