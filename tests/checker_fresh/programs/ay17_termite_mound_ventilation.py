# fresh-expect: E0505 at line 58
# fresh-note: A chimney sampler keeps a pending launch_async that reads `self.co2` in an attribute; the daily cycle mixes air with a tile launch that moves `self.co2` inside the try and only flushes the sampler in the finally, so the buffer is moved while borrowed.
"""Termite mound ventilation: CO2 probes in the chimney and the daily convective flush.

A sampler object starts an async SIMT probe reduction that reads the CO2 buffer and keeps
the op in an attribute; the daily cycle then mixes the chimney air with a tile kernel and
relies on a finally block to flush the sampler.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

PROBES = 64
TILE = (16,)


@simt.kernel
@simt.launch_contract(block=64)
def probe_excess(co2: Slice[f32], ambient: f32, excess: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := excess.get_mut(idx)) is not None:
        e.set(max(co2[i] - ambient, 0.0))


@tile.kernel
def convect(air: Partition[f32], co2: Tensor[f32], temp_gradient: f32) -> None:
    a = air.load()
    c = tile.load_like(co2, air)
    exchange = min(temp_gradient * 0.04, 0.9)
    air.store(a * (1.0 - exchange) + c * exchange)


class ChimneySampler:
    def __init__(self, dev: sk.Device, stream: sk.Stream, co2: sk.DeviceBuffer) -> None:
        self.stream = stream
        self.co2 = co2
        self.excess = sk.zeros(PROBES, f32, stream)
        self.prepared = probe_excess.prepare(simt.LaunchConfig1D.for_len(PROBES, block=64), dev)
        self.pending: sk.DeviceOp | None = None

    def start(self, ambient: float) -> None:
        self.pending = probe_excess.launch_async(self.prepared, self.co2, ambient, self.excess)

    def flush(self) -> np.ndarray:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None
        return self.excess.to_numpy(self.stream)

    def mix(self, air: Partition, gradient: float) -> Partition:
        air, co2, _g = convect(air, self.co2, gradient).sync_on(self.stream)
        self.co2 = co2
        return air


def daily_cycle(sampler: ChimneySampler, air: Partition, gradient: float) -> tuple[Partition, float]:
    sampler.start(ambient=420.0)
    try:
        air = sampler.mix(air, gradient)
    finally:
        excess = sampler.flush()
    return air, float(excess.mean())


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)

    co2 = sk.to_device(rng.uniform(800.0, 4000.0, PROBES).astype(np.float32), stream)
    sampler = ChimneySampler(dev, stream, co2)
    air = tile.full((PROBES,), 420.0, f32).partition(TILE)

    for day, gradient in enumerate((4.0, 7.5, 2.0)):
        air, mean_excess = daily_cycle(sampler, air, gradient)
        print(f"day {day}: mean CO2 excess {mean_excess:7.1f} ppm")

    print("chimney air after flushes:", air.unpartition().to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
