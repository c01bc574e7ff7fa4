# fresh-expect: clean
# fresh-note: Lichen growth mapping on survey rocks; per-plot cover launches are queued as launch_async ops, zipped and run before the cover buffers move into a tile growth-rate kernel.
"""Lichen cover growth from repeat photo surveys of boulder plots."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

PIXELS = 128


@simt.kernel
@simt.launch_contract(block=64)
def cover_fraction(green: Slice[f32], grey: Slice[f32], cover: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := cover.get_mut(idx)) is not None:
        total = green[i] + grey[i] + f32(1e-3)
        o.set(green[i] / total)


@tile.kernel
def growth(rate: Partition[f32], before: Tensor[f32], after: Tensor[f32], years: f32) -> None:
    rate.store((tile.load_like(after, rate) - tile.load_like(before, rate)) / years)


@dataclass
class Plot:
    name: str
    green: sk.DeviceBuffer
    grey: sk.DeviceBuffer
    cover: sk.DeviceBuffer = field(init=False)


class SurveyQueue:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = cover_fraction.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=64), dev)
        self.pending: list[sk.DeviceOp] = []

    def enqueue(self, plot: Plot) -> None:
        plot.cover = sk.zeros(PIXELS, f32, self.stream)
        self.pending.append(cover_fraction.launch_async(self.prepared, plot.green, plot.grey, plot.cover))

    def flush(self) -> int:
        count = len(self.pending)
        if count:
            sk.zip(*self.pending).sync_on(self.stream)
            self.pending.clear()
        return count


def make_plot(rng: np.random.Generator, stream: sk.Stream, name: str, boost: float) -> Plot:
    green = rng.uniform(0, 1, PIXELS).astype(np.float32) * boost
    grey = rng.uniform(0, 1, PIXELS).astype(np.float32)
    return Plot(name, sk.to_device(green, stream), sk.to_device(grey, stream))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    queue = SurveyQueue(dev, stream)
    surveys = {year: [make_plot(rng, stream, f"R{k}", 1.0 + 0.1 * (year - 2015)) for k in range(2)] for year in (2015, 2023)}
    for plots in surveys.values():
        for plot in plots:
            queue.enqueue(plot)
    print("ran", queue.flush(), "cover launches")
    for early, late in zip(surveys[2015], surveys[2023]):
        out = tile.zeros((PIXELS,), f32).partition((32,))
        rate, early.cover, late.cover, _ = growth(out, early.cover, late.cover, 8.0).sync_on(stream)
        per_year = rate.unpartition().to_numpy(stream)
        print(f"{early.name}: {100 * per_year.mean():+.2f} %/yr cover")


if __name__ == "__main__":
    main()
