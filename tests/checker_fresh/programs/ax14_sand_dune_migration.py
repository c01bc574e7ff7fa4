# fresh-expect: clean
# fresh-note: Migrates a barchan dune profile with an iterator that hands out disjoint windows of the flux buffer to several pending launch_async ops that share only the elevation input; all ops are synced before flux is read and elevation is ping-ponged.
"""Sand-dune migration: saltation flux over a 1-D dune transect and the resulting downwind creep."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 256
WINDOW = 64
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def saltation(elev: Slice[f32], flux: DisjointSlice[f32], offset: int, wind: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := flux.get_mut(idx)) is not None:
        g = offset + i
        upwind = elev[max(g - 1, 0)]
        slope = elev[g] - upwind
        o.set(wind * wind * 0.001 * max(1.0 - 4.0 * slope, 0.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def creep(elev: Slice[f32], flux: Slice[f32], out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        inflow = flux[max(i - 1, 0)]
        o.set(elev[i] + dt * (inflow - flux[i]))


class FluxWindows:
    """Iterates over disjoint windows of one flux buffer: (offset, view)."""

    def __init__(self, flux: sk.DeviceBuffer, width: int) -> None:
        self.flux = flux
        self.width = width
        self._next = 0

    def __iter__(self) -> Iterator[tuple[int, sk.DeviceBuffer]]:
        return self

    def __next__(self) -> tuple[int, sk.DeviceBuffer]:
        start = self._next
        if start >= self.flux.length:
            raise StopIteration
        self._next = start + self.width
        return start, self.flux.view(start, start + self.width)


@dataclass
class Transect:
    name: str
    elevation: sk.DeviceBuffer
    spare: sk.DeviceBuffer

    @classmethod
    def barchan(cls, name: str, stream: sk.Stream, crest: int) -> "Transect":
        x = np.arange(CELLS, dtype=np.float32)
        dune = 6.0 * np.exp(-((x - crest) / 18.0) ** 2)
        return cls(name, sk.to_device(dune.astype(np.float32), stream), sk.zeros(CELLS, f32, stream))


class DuneModel:
    def __init__(self, dev: sk.Device, wind: float) -> None:
        self.stream = dev.new_stream()
        self.wind = wind
        self.salt_launch = saltation.prepare(simt.LaunchConfig1D.for_len(WINDOW, block=BLOCK), dev)
        self.creep_launch = creep.prepare(simt.LaunchConfig1D.for_len(CELLS, block=BLOCK), dev)

    def step(self, t: Transect, dt: float) -> None:
        flux = sk.zeros(CELLS, f32, self.stream)
        pending = [
            saltation.launch_async(self.salt_launch, t.elevation, window, offset, self.wind)
            for offset, window in FluxWindows(flux, WINDOW)
        ]
        for op in pending:
            op.sync_on(self.stream)
        creep.launch(self.creep_launch, self.stream, t.elevation, flux, t.spare, dt)
        t.elevation, t.spare = t.spare, t.elevation

    def crest(self, t: Transect) -> int:
        return int(np.argmax(t.elevation.to_numpy(self.stream)))


def main() -> None:
    model = DuneModel(sk.Device.default(), wind=11.0)
    for t in (Transect.barchan("Erg Chebbi", model.stream, 80), Transect.barchan("Namib", model.stream, 140)):
        start = model.crest(t)
        for _ in range(6):
            model.step(t, dt=1.5)
        print(f"{t.name:11s} crest moved {start} -> {model.crest(t)}, peak {t.elevation.to_numpy(model.stream).max():.2f} m")


if __name__ == "__main__":
    main()
