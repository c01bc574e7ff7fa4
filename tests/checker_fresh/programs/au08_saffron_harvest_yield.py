# fresh-expect: clean
# fresh-note: Saffron harvest yield forecasting; a tile kernel updates the per-bed bloom state each day with every handle taken back from sync_on, and a property lends the current tensor to a SIMT stigma-weight kernel via as_buffer.
"""Daily bloom and stigma yield forecast for saffron crocus beds."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BEDS = 128


@tile.kernel
def bloom_day(nxt: Partition[f32], bloom: Tensor[f32], soil_temp: Tensor[f32], rate: f32) -> None:
    b = tile.load_like(bloom, nxt)
    warmth = tile.maximum(tile.load_like(soil_temp, nxt) - 12.0, 0.0)
    nxt.store(tile.minimum(b + rate * warmth * (1.0 - b), 1.0))


@simt.kernel
@simt.launch_contract(block=64)
def stigma_grams(bloom: Slice[f32], density: Slice[f32], grams: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (g := grams.get_mut(idx)) is not None:
        g.set(bloom[i] * density[i] * f32(0.006))


class BedModel:
    def __init__(self, dev: sk.Device, stream: sk.Stream, density: np.ndarray) -> None:
        self.stream = stream
        self.state = tile.zeros((BEDS,), f32).sync_on(stream)
        self.density = sk.to_device(density, stream)
        self.grams = sk.zeros(BEDS, f32, stream)
        self.prepared = stigma_grams.prepare(simt.LaunchConfig1D.for_len(BEDS, block=64), dev)
        self.days = 0

    @property
    def bloom(self) -> sk.DeviceBuffer:
        return self.state.as_buffer()

    def advance(self, soil_temp: np.ndarray, rate: float = 0.04) -> None:
        out = tile.zeros((BEDS,), f32).partition((32,))
        nxt, _, _, _ = bloom_day(out, self.state, tile.from_numpy(soil_temp), rate).sync_on(self.stream)
        self.state = nxt.unpartition()
        self.days += 1

    def harvest_estimate(self) -> float:
        stigma_grams.launch(self.prepared, self.stream, self.bloom, self.density, self.grams)
        return float(self.grams.to_numpy(self.stream).sum())


def soil_series(rng: np.random.Generator, days: int):
    for day in range(days):
        yield (14.0 + 3.0 * np.sin(day / 3.0) + rng.normal(0, 0.5, BEDS)).astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    model = BedModel(dev, stream, rng.uniform(40, 70, BEDS).astype(np.float32))
    checkpoints = []
    try:
        for temps in soil_series(rng, 9):
            model.advance(temps)
            if model.days % 3 == 0:
                checkpoints.append((model.days, model.harvest_estimate()))
    finally:
        print(f"simulated {model.days} days")
    for day, grams in checkpoints:
        print(f"day {day}: {grams:.1f} g dried stigma expected")


if __name__ == "__main__":
    main()
