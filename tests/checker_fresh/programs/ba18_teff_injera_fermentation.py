# fresh-expect: clean
# fresh-note: Ferments injera batter with launch_async ops kept per batch; the EyeGradingBakery override of grade() calls super().grade() (which settles the pending op) before partitioning batch.gas for its tile kernel, and process() settles again in finally.
"""Injera bakery: ferments teff batter (ersho starter) asynchronously, then grades the bubble eyes in tiles."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

MITAD_CELLS = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def ferment(batter: Slice[f32], ersho: Slice[f32], gas: DisjointSlice[f32], hours: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := gas.get_mut(idx)) is not None:
        cell.set(batter[i] * ersho[i % len(ersho)] * hours * 0.01)


@tile.kernel
def eyes(grade: Partition[f32], gas: Tensor[f32], threshold: f32) -> None:
    g = tile.load_like(gas, grade)
    grade.store(tile.where(g > threshold, 1.0, 0.0))


@dataclass
class Batch:
    name: str
    batter: sk.DeviceBuffer
    gas: sk.DeviceBuffer
    eye_ratio: float = 0.0


class Bakery:
    """Ferments asynchronously; grade() waits for a batch's ferment before looking at it."""

    def __init__(self, device: sk.Device, n: int, ersho: np.ndarray) -> None:
        self.stream = device.new_stream()
        self.prepared = ferment.prepare(simt.LaunchConfig1D.for_len(n, block=64), device)
        self.ersho = sk.to_device(ersho.astype(np.float32), self.stream)
        self.inflight: dict[str, sk.DeviceOp] = {}

    def settle(self, batch: Batch) -> None:
        op = self.inflight.pop(batch.name, None)
        if op is not None:
            op.sync_on(self.stream)

    def grade(self, batch: Batch) -> float:
        self.settle(batch)
        return float(batch.gas.to_numpy(self.stream).mean())

    def process(self, batch: Batch, hours: float) -> Batch:
        self.inflight[batch.name] = ferment.launch_async(self.prepared, batch.batter, self.ersho, batch.gas, hours)
        try:
            batch.eye_ratio = self.grade(batch)
        finally:
            self.settle(batch)
        return batch


class EyeGradingBakery(Bakery):
    """Counts the cells that will open into eyes on the mitad, after the base grade has settled the batch."""

    def grade(self, batch: Batch) -> float:
        mean_gas = super().grade(batch)
        grade = tile.zeros((MITAD_CELLS,), f32).partition((TILE,))
        grade, gas, _ = eyes(grade, batch.gas.partition((TILE,)).unpartition(), mean_gas).sync_on(self.stream)
        batch.gas = sk.as_buffer(gas)
        return float(grade.unpartition().to_numpy(self.stream).mean())


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(67)
    bakery = EyeGradingBakery(device, MITAD_CELLS, ersho=rng.uniform(0.8, 1.2, 16))
    batches = [
        Batch(name, sk.to_device(rng.uniform(0.5, 1.0, MITAD_CELLS).astype(np.float32), stream),
              sk.zeros(MITAD_CELLS, f32, stream))
        for name in ("morning", "noon", "evening")
    ]
    done = []
    while batches:
        done.append(bakery.process(batches.pop(0), hours=48.0))
    for batch in done:
        print(f"{batch.name:>8}: {batch.eye_ratio:.1%} of cells open into eyes")


if __name__ == "__main__":
    main()
