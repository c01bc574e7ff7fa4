# fresh-expect: E0499 at line 87
# fresh-note: Order-book fill application; the book's scratch pool caches buffers by length only, so the bid and ask delta buffers it hands out are one buffer and the fill launch gets it as two mutable outputs (E0499).
"""Applies a batch of fills to a price-level order book (SIMT track).

One thread per price level scans the batch of fills and accumulates the filled quantity on its level for each
side; a second kernel subtracts the filled quantity from the resting depth into the back buffer, which is then
swapped with the front buffer.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

BID, ASK = 0, 1


@simt.kernel
@simt.launch_contract(block=64)
def fill_deltas(level: Slice[i32], qty: Slice[f32], side: Slice[i32],
                bid_delta: DisjointSlice[f32], ask_delta: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    lv = idx.get()
    bid = f32(0.0)
    ask = f32(0.0)
    for j in range(len(level)):
        if level[j] == lv:
            if side[j] == 0:
                bid += qty[j]
            else:
                ask += qty[j]
    if (b := bid_delta.get_mut(idx)) is not None:
        b.set(bid)
    if (a := ask_delta.get_mut(thread.index_1d())) is not None:
        a.set(ask)


@simt.kernel
@simt.launch_contract(block=64)
def consume(depth: Slice[f32], filled: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(depth[i] - filled[i], f32(0.0)))


@dataclass
class Fills:
    level: np.ndarray
    qty: np.ndarray
    side: np.ndarray

    def upload(self, stream: sk.Stream) -> tuple[sk.DeviceBuffer, ...]:
        return (sk.to_device(self.level.astype(np.int32), stream),
                sk.to_device(self.qty.astype(np.float32), stream),
                sk.to_device(self.side.astype(np.int32), stream))


@dataclass
class OrderBook:
    levels: int
    stream: sk.Stream
    dev: sk.Device
    front: dict = field(default_factory=dict)
    back: dict = field(default_factory=dict)
    _pool: dict = field(default_factory=dict)

    def scratch(self, length: int) -> sk.DeviceBuffer:
        if length not in self._pool:
            self._pool[length] = sk.zeros(length, f32, self.stream)
        return self._pool[length]

    def seed(self, bid: np.ndarray, ask: np.ndarray) -> None:
        for name, arr in (("bid", bid), ("ask", ask)):
            self.front[name] = sk.to_device(arr.astype(np.float32), self.stream)
            self.back[name] = sk.zeros(self.levels, f32, self.stream)

    def apply(self, fills: Fills) -> None:
        cfg = simt.LaunchConfig1D.for_len(self.levels, block=64)
        level, qty, side = fills.upload(self.stream)
        bid_delta, ask_delta = self.scratch(self.levels), self.scratch(self.levels)
        fill_deltas.launch(fill_deltas.prepare(cfg, self.dev), self.stream, level, qty, side, bid_delta, ask_delta)
        prep = consume.prepare(cfg, self.dev)
        for name, delta in (("bid", bid_delta), ("ask", ask_delta)):
            consume.launch(prep, self.stream, self.front[name], delta, self.back[name])
            self.front[name], self.back[name] = self.back[name], self.front[name]

    def snapshot(self) -> dict[str, np.ndarray]:
        return {name: buf.to_numpy(self.stream) for name, buf in self.front.items()}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    levels = 128
    rng = np.random.default_rng(11)
    bid0, ask0 = rng.uniform(10, 100, levels), rng.uniform(10, 100, levels)
    book = OrderBook(levels, stream, dev)
    book.seed(bid0, ask0)
    fills = Fills(rng.integers(0, levels, 200), rng.uniform(0, 5, 200), rng.integers(0, 2, 200))
    book.apply(fills)
    snap = book.snapshot()
    for side_id, name, start in ((BID, "bid", bid0), (ASK, "ask", ask0)):
        mask = fills.side == side_id
        filled = np.bincount(fills.level[mask], weights=fills.qty[mask], minlength=levels)
        assert np.allclose(snap[name], np.maximum(start - filled, 0.0), atol=1e-3), name
    print("best bid depth:", snap["bid"].max(), "best ask depth:", snap["ask"].max())


if __name__ == "__main__":
    main()
