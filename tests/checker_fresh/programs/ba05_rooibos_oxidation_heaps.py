# fresh-expect: E0505 at line 70
# fresh-note: Bruises rooibos needles with a SIMT launch_async started in BruisingHeap.__enter__ and synced in __exit__, then ferments them in tiles; ferment() is called inside the with block, so partitioning self.bruised moves a buffer the pending bruise op still borrows mutably.
"""Rooibos tea yard: bruises cut needles on the SIMT side, then ferments the heap in tiles until it turns red."""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

HEAP_CELLS = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=128)
def bruise(cut: Slice[f32], bruised: DisjointSlice[f32], pressure: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := bruised.get_mut(idx)) is not None:
        cell.set(min(cut[i] * pressure, 1.0))


@tile.kernel
def oxidise(colour: Partition[f32], needles: Tensor[f32], warmth: Tensor[f32]) -> None:
    t = tile.load_like(needles, colour)
    w = tile.load_like(warmth, colour)
    colour.store(tile.minimum(t * 0.7 + w * 0.3, 1.0))


class CuringStage:
    """A stage that starts its SIMT work on entry and waits for it on exit."""

    def __init__(self, device: sk.Device, stream: sk.Stream, n: int) -> None:
        self.device = device
        self.stream = stream
        self.n = n
        self.op: sk.DeviceOp | None = None
        self.finished = False

    def _start(self) -> sk.DeviceOp:
        raise NotImplementedError

    def __enter__(self) -> "CuringStage":
        self.op = self._start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None
        self.finished = True


class BruisingHeap(CuringStage):
    def __init__(self, device: sk.Device, stream: sk.Stream, cut: np.ndarray, pressure: float) -> None:
        super().__init__(device, stream, len(cut))
        self.cut = sk.to_device(cut.astype(np.float32), stream)
        self.bruised = sk.zeros(self.n, f32, stream)
        self.pressure = pressure
        self.prepared = bruise.prepare(simt.LaunchConfig1D.for_len(self.n, block=128), device)

    def _start(self) -> sk.DeviceOp:
        return bruise.launch_async(self.prepared, self.cut, self.bruised, self.pressure)

    def ferment(self, warmth: np.ndarray) -> np.ndarray:
        colour = tile.zeros((self.n,), f32).partition((TILE,))
        needles = self.bruised.partition((TILE,)).unpartition()
        colour, needles, _ = oxidise(colour, needles, tile.from_numpy(warmth)).sync_on(self.stream)
        return colour.unpartition().to_numpy(self.stream)


def run_yard(device: sk.Device, days: int) -> list[float]:
    stream = device.new_stream()
    rng = np.random.default_rng(17)
    redness = []
    for day in range(days):
        cut = rng.uniform(0.2, 0.9, HEAP_CELLS)
        warmth = np.full(HEAP_CELLS, 0.4 + 0.1 * day, np.float32)
        with BruisingHeap(device, stream, cut, pressure=1.3) as heap:
            # turn the heap while the bruising settles, to save a trip across the yard
            colour = heap.ferment(warmth)
        redness.append(float(colour.mean()))
    return redness


def main() -> None:
    device = sk.Device.default()
    for day, red in enumerate(run_yard(device, days=2)):
        print(f"day {day}: mean redness {red:.3f}")


if __name__ == "__main__":
    main()
