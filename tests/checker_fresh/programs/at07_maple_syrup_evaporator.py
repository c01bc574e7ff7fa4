# fresh-expect: E0505 at line 52
# fresh-note: Maple syrup evaporator that estimates sugar content asynchronously and then boils the pan down with a tile kernel; the boil-down partitions the sap buffer while the pending Brix launch still borrows it.
"""Maple sugarhouse: estimate Brix per pan section, then boil the sap down toward syrup density."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 64
TILE = 64
SYRUP_BRIX = 66.0


@simt.kernel
@simt.launch_contract(block=BLOCK)
def brix_estimate(sap: Slice[f32], temp: Slice[f32], brix: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := brix.get_mut(idx)) is not None:
        boiling_rise = temp[i] - f32(100.0)
        o.set(sap[i] + boiling_rise * f32(11.5))


@tile.kernel
def boil_down(sap: Partition[f32], heat: Tensor[f32], minutes: f32) -> None:
    s = sap.load()
    concentrated = s * (1.0 + 0.004 * tile.load_like(heat, sap) * minutes)
    sap.store(tile.minimum(concentrated, SYRUP_BRIX))


class Evaporator:
    def __init__(self, dev: sk.Device, stream: sk.Stream, sections: int) -> None:
        self.stream = stream
        self.sections = sections
        self.sap = sk.to_device(np.full(sections, 2.2, np.float32), stream)
        self.brix = sk.zeros(sections, f32, stream)
        self.heat = tile.from_numpy(np.linspace(0.6, 1.4, sections).astype(np.float32))
        self._prepared = brix_estimate.prepare(simt.LaunchConfig1D.for_len(sections, block=BLOCK), dev)
        self.pending: sk.DeviceOp | None = None

    def start_reading(self, thermometers: np.ndarray) -> None:
        temp = sk.to_device(thermometers.astype(np.float32), self.stream)
        self.pending = brix_estimate.launch_async(self._prepared, self.sap, temp, self.brix)

    def boil(self, minutes: float) -> None:
        pan = self.sap.partition((TILE,))
        pan, self.heat, _ = boil_down(pan, self.heat, minutes).sync_on(self.stream)
        self.sap = pan.unpartition()

    def finish_reading(self) -> np.ndarray:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None
        return self.brix.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    evap = Evaporator(dev, stream, sections=256)
    rng = np.random.default_rng(5)
    for batch in range(3):
        evap.start_reading(100.0 + rng.uniform(3.0, 6.5, 256))
        evap.boil(minutes=45.0)
        brix = evap.finish_reading()
        ready = int((brix >= SYRUP_BRIX).sum())
        print(f"batch {batch}: mean {brix.mean():.1f} Brix, {ready} sections ready to draw off")


if __name__ == "__main__":
    main()
