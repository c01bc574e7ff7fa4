# fresh-expect: clean
# fresh-note: A materialised per-store revenue view is refreshed incrementally from micro-batches; refresh() returns early for an all-filtered batch before it partitions self.state, so the state is only moved when a launch hands it back.
"""Incrementally maintained materialised view: per-store revenue totals updated from event micro-batches."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

STORES = 48
TILE = 16


@tile.kernel
def apply_delta(view: Partition[f32], delta: Tensor[f32]) -> None:
    view.store(view.load() + tile.load_like(delta, view))


@dataclass(frozen=True)
class Sale:
    store: int
    amount: float
    status: str


class MaterializedView:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.state = tile.zeros((STORES,), f32).sync_on(stream)
        self.refreshes = 0
        self.skipped = 0

    def refresh(self, batch: list[Sale]) -> None:
        settled = [s for s in batch if s.status == "settled"]
        if not settled:
            self.skipped += 1
            return
        parts = self.state.partition((TILE,))
        delta = np.zeros(STORES, np.float32)
        np.add.at(delta, [s.store for s in settled], [s.amount for s in settled])
        parts, _delta = apply_delta(parts, tile.from_numpy(delta)).sync_on(self.stream)
        self.state = parts.unpartition()
        self.refreshes += 1

    def snapshot(self) -> np.ndarray:
        return self.state.to_numpy(self.stream)


def micro_batches(rng: np.random.Generator) -> list[list[Sale]]:
    def batch(n: int, status: str) -> list[Sale]:
        return [Sale(int(rng.integers(STORES)), float(rng.integers(1, 100)), status) for _ in range(n)]

    return [batch(40, "settled"), batch(12, "pending"), batch(30, "settled")]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    view = MaterializedView(stream)
    want = np.zeros(STORES, np.float32)
    for batch in micro_batches(rng):
        view.refresh(batch)
        for sale in batch:
            if sale.status == "settled":
                want[sale.store] += sale.amount
    np.testing.assert_allclose(view.snapshot(), want)
    top = np.argsort(view.snapshot())[-3:][::-1]
    print(f"{view.refreshes} refreshes, {view.skipped} skipped; top stores {top.tolist()}")


if __name__ == "__main__":
    main()
