# fresh-expect: clean
# fresh-note: Tortoise nest incubation model whose class moves its temperature tensor into a tile launch for a soil-exchange step and then re-points the SIMT-facing buffer attribute at `as_buffer()` of the unpartitioned tensor, so the `probe` property always hands live memory to the sex-ratio SIMT kernel (also through two disjoint split_at views).
"""Nest temperature and the predicted hatchling sex ratio (temperature-dependent sex determination)."""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

EGGS = 2048       # sampling points through the nest chamber
TILE = 256
PIVOT_C = 29.5


@tile.kernel
def soil_exchange(temp: Partition[f32], soil: Tensor[f32], k: f32) -> None:
    t = temp.load()
    s = tile.load_like(soil, temp)
    temp.store(t + (s - t) * k)


@simt.kernel
@simt.launch_contract(block=128)
def female_fraction(temp: Slice[f32], frac: DisjointSlice[f32], slope: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := frac.get_mut(idx)) is not None:
        o.set(f32(1.0) / (f32(1.0) + math.exp(-slope * (temp[i] - f32(PIVOT_C)))))


class Nest:
    def __init__(self, dev: sk.Device, stream: sk.Stream, depth_cm: float) -> None:
        self.stream = stream
        self.depth_cm = depth_cm
        self._tensor = tile.full((EGGS,), 27.0, f32).sync_on(stream)
        self._temps = self._tensor.as_buffer()
        self.soil = tile.from_numpy(np.linspace(28.0, 31.5, EGGS, dtype=np.float32)).shared()
        self.prepared = female_fraction.prepare(simt.LaunchConfig1D.for_len(EGGS // 2, block=128), dev)

    @property
    def probe(self) -> sk.DeviceBuffer:
        return self._temps

    def exchange_heat(self, hours: int) -> None:
        parts = self._tensor.partition((TILE,))
        k = 1.0 - math.exp(-hours / (4.0 * self.depth_cm))
        parts, _soil, _k = soil_exchange(parts, self.soil, k).sync_on(self.stream)
        self._tensor = parts.unpartition()
        self._temps = self._tensor.as_buffer()

    def sex_ratio(self) -> tuple[float, float]:
        upper, lower = self.probe.split_at(EGGS // 2)
        f_up = sk.zeros(EGGS // 2, f32, self.stream)
        f_low = sk.zeros(EGGS // 2, f32, self.stream)
        female_fraction.launch(self.prepared, self.stream, upper, f_up, 1.4)
        female_fraction.launch(self.prepared, self.stream, lower, f_low, 1.4)
        return float(f_up.to_numpy(self.stream).mean()), float(f_low.to_numpy(self.stream).mean())


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    nest = Nest(dev, stream, depth_cm=25.0)
    for day in range(1, 6):
        nest.exchange_heat(hours=24)
        up, low = nest.sex_ratio()
        print(f"day {day}: female fraction upper {up:.2f}, lower {low:.2f}")


if __name__ == "__main__":
    main()
