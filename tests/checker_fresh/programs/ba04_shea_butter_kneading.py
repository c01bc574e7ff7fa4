# fresh-expect: clean
# fresh-note: Kneads shea paste batches popped from a heap into butter and wash outputs taken from a round-robin pool of pairs, where every pair is two separate allocations.
"""Shea butter kneading house: splits churned nut paste into butter and wash water, driest batches first."""
from __future__ import annotations

import collections
import heapq
from dataclasses import dataclass, field

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PASTE_CELLS = 192


@simt.kernel
@simt.launch_contract(block=64)
def knead(paste: Slice[f32], butter: DisjointSlice[f32], wash: DisjointSlice[f32], fat: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    mass = paste[i]
    if (b := butter.get_mut(idx)) is not None:
        b.set(mass * fat)
    k = thread.index_1d()
    if (w := wash.get_mut(k)) is not None:
        w.set(mass * (1.0 - fat))


@simt.kernel
@simt.launch_contract(block=64)
def clarify(raw: Slice[f32], clear: DisjointSlice[f32], loss: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := clear.get_mut(idx)) is not None:
        out.set(raw[i] * (1.0 - loss))


class PairPool:
    """Round-robin pool of (butter, wash) buffer pairs; each pair is two separate allocations."""

    def __init__(self, stream: sk.Stream, n: int, pairs: int) -> None:
        self._ring = collections.deque(
            (sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)) for _ in range(max(1, pairs))
        )

    def take_pair(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        pair = self._ring[0]
        self._ring.rotate(-1)
        return pair


@dataclass(order=True)
class Batch:
    moisture: float
    village: str = field(compare=False)
    paste: np.ndarray = field(compare=False, repr=False)
    butter_kg: float = field(default=0.0, compare=False)


class KneadingHouse:
    def __init__(self, device: sk.Device, n: int, basins: int) -> None:
        self.stream = device.new_stream()
        cfg = simt.LaunchConfig1D.for_len(n, block=64)
        self.plans = {"knead": knead.prepare(cfg, device), "clarify": clarify.prepare(cfg, device)}
        self.pool = PairPool(self.stream, n, pairs=basins)
        self.clear = sk.zeros(n, f32, self.stream)

    def process(self, batch: Batch) -> Batch:
        paste = sk.to_device(batch.paste.astype(np.float32), self.stream)
        butter, wash = self.pool.take_pair()
        knead.launch(self.plans["knead"], self.stream, paste, butter, wash, 0.48 - batch.moisture * 0.1)
        clarify.launch(self.plans["clarify"], self.stream, butter, self.clear, 0.03)
        batch.butter_kg = float(self.clear.to_numpy(self.stream).sum()) / 100.0
        return batch


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(5)
    house = KneadingHouse(device, PASTE_CELLS, basins=1)
    heap: list[Batch] = []
    for village, moisture in (("Léo", 0.31), ("Koudougou", 0.12), ("Dano", 0.22)):
        heapq.heappush(heap, Batch(moisture, village, rng.uniform(0.9, 1.1, PASTE_CELLS)))
    done: list[Batch] = []
    while heap:
        done.append(house.process(heapq.heappop(heap)))
    for batch in done:
        print(f"{batch.village:>10} (moisture {batch.moisture:.2f}): {batch.butter_kg:.3f} kg")


if __name__ == "__main__":
    main()
