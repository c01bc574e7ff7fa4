# fresh-expect: clean
# fresh-note: Windmill grain-milling model that estimates flour fineness per millstone asynchronously, syncs that reading inside a context manager, and only afterwards hands the grist buffer to a tile grinding kernel.
"""Windmill: estimate fineness from sail speed, then grind the grist between the stones."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 64
TILE = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def fineness(grist: Slice[f32], sail_rpm: Slice[f32], microns: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := microns.get_mut(idx)) is not None:
        o.set(grist[i] / (f32(1.0) + sail_rpm[i] * f32(0.05)))


@tile.kernel
def grind(grist: Partition[f32], gap: Tensor[f32], passes: f32) -> None:
    g = grist.load()
    crushed = g * tile.exp(-0.12 * passes / (tile.load_like(gap, grist) + 0.5))
    grist.store(tile.maximum(crushed, 90.0))


@contextmanager
def reading(op: sk.DeviceOp, stream: sk.Stream) -> Iterator[None]:
    try:
        yield
    finally:
        op.sync_on(stream)


class Mill:
    def __init__(self, dev: sk.Device, stream: sk.Stream, stones: int) -> None:
        self.stream = stream
        self.grist = sk.to_device(np.full(stones, 1800.0, np.float32), stream)
        self.microns = sk.zeros(stones, f32, stream)
        self.gap = tile.from_numpy(np.linspace(0.2, 1.2, stones).astype(np.float32))
        self._prepared = fineness.prepare(simt.LaunchConfig1D.for_len(stones, block=BLOCK), dev)

    def survey(self, wind: np.ndarray) -> sk.DeviceOp:
        rpm = sk.to_device((wind * 1.9).astype(np.float32), self.stream)
        return fineness.launch_async(self._prepared, self.grist, rpm, self.microns)

    def grind(self, passes: float) -> None:
        stones = self.grist.partition((TILE,))
        stones, self.gap, _ = grind(stones, self.gap, passes).sync_on(self.stream)
        self.grist = stones.unpartition()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    mill = Mill(dev, stream, stones=96)
    rng = np.random.default_rng(21)
    for shift in ("dawn", "noon", "dusk"):
        wind = rng.uniform(4.0, 11.0, 96)
        with reading(mill.survey(wind), stream):
            print(f"{shift}: wind {wind.mean():.1f} m/s, surveying the stones")
        estimate = mill.microns.to_numpy(stream)
        mill.grind(passes=6.0)
        flour = mill.grist.to_numpy(stream)
        print(f"  estimated {estimate.mean():.0f} um before, {flour.mean():.0f} um after grinding")


if __name__ == "__main__":
    main()
