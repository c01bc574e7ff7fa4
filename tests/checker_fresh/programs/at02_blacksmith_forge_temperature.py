# fresh-expect: clean
# fresh-note: Blacksmith forge model that conducts heat along a bar held in double buffers swapped after every step, then flags the zones hot enough to forge.
"""Blacksmith forge: 1-D heat conduction along an iron bar with a coal bed under part of it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(src) >= n", "len(dst) >= n", "len(fire) >= n"))
def conduct(src: Slice[f32], fire: Slice[f32], dst: DisjointSlice[f32], k: f32, ambient: f32, n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n:
        left = ambient
        right = ambient
        if i > 0:
            left = src[i - 1]
        if i + 1 < n:
            right = src[i + 1]
        if (o := dst.get_mut(idx)) is not None:
            o.set(src[i] + k * (left - f32(2.0) * src[i] + right) + fire[i])


@dataclass
class BarState:
    current: sk.DeviceBuffer
    scratch: sk.DeviceBuffer
    steps: int = 0

    def swap(self) -> None:
        self.current, self.scratch = self.scratch, self.current
        self.steps += 1


class Forge:
    def __init__(self, dev: sk.Device, stream: sk.Stream, cells: int, bed: slice) -> None:
        self.stream = stream
        self.cells = cells
        heat = np.zeros(cells, np.float32)
        heat[bed] = 35.0
        self.fire = sk.to_device(heat, stream)
        self.bar = BarState(sk.to_device(np.full(cells, 20.0, np.float32), stream), sk.zeros(cells, f32, stream))
        self._prepared = conduct.prepare(simt.LaunchConfig1D.for_len(cells, block=BLOCK), dev)

    def tick(self, k: float = 0.2) -> None:
        conduct.launch(self._prepared, self.stream, self.bar.current, self.fire, self.bar.scratch, k, 20.0, self.cells)
        self.bar.swap()

    @property
    def profile(self) -> np.ndarray:
        return self.bar.current.to_numpy(self.stream)

    def forging_zone(self, threshold: float) -> tuple[int, int] | None:
        hot = np.flatnonzero(self.profile >= threshold)
        if hot.size == 0:
            return None
        return int(hot[0]), int(hot[-1])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    forge = Forge(dev, stream, cells=300, bed=slice(120, 180))
    try:
        for minute in range(40):
            forge.tick()
            if minute % 10 == 9:
                zone = forge.forging_zone(threshold=700.0)
                print(f"minute {minute + 1}: peak {forge.profile.max():.0f} C, zone {zone}")
    finally:
        print("steps run:", forge.bar.steps)


if __name__ == "__main__":
    main()
