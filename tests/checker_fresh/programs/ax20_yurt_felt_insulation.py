# fresh-expect: E0502 at line 82
# fresh-note: Steps heat conduction through yurt wall layers with both time levels as views of one buffer; _halves() gives the current level a ghost cell (view(0, CELLS + 1)) that overlaps the first cell of the next level, so the launch reads and writes overlapping memory.
"""Yurt insulation: 1-D heat conduction through canvas and felt wall layers on a winter night."""
from __future__ import annotations
import abc
from typing import NamedTuple


import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 128  # through-wall samples, inside (0) to outside (127)
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(temp) >= len(out)",))
def conduct(temp: Slice[f32], k: Slice[f32], out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        n = len(out)
        left = temp[max(i - 1, 0)]
        right = temp[min(i + 1, n - 1)]
        o.set(temp[i] + dt * k[i] * (left - 2.0 * temp[i] + right))


class Layer(abc.ABC):
    def __init__(self, cells: int) -> None:
        self.cells = cells

    @property
    @abc.abstractmethod
    def diffusivity(self) -> float: ...

    @staticmethod
    def stack(layers: list["Layer"]) -> np.ndarray:
        return np.concatenate([np.full(layer.cells, layer.diffusivity, np.float32) for layer in layers])


class Canvas(Layer):
    @property
    def diffusivity(self) -> float:
        return 0.22


class Felt(Layer):
    def __init__(self, cells: int, thickness_cm: float) -> None:
        super().__init__(cells)
        self.thickness_cm = thickness_cm

    @property
    def diffusivity(self) -> float:
        return 0.05 / max(self.thickness_cm / 2.0, 1.0)


class Night(NamedTuple):
    hours: int
    inner_face: float
    outer_face: float


class Yurt:
    def __init__(self, dev: sk.Device, layers: list[Layer], stove_c: float, outside_c: float) -> None:
        self.stream = dev.new_stream()
        self.prepared = conduct.prepare(simt.LaunchConfig1D.for_len(CELLS, block=BLOCK), dev)
        start = np.linspace(stove_c, outside_c, CELLS, dtype=np.float32)
        # one allocation holds both time levels: [current | next]
        self.temps = sk.to_device(np.concatenate([start, start]), self.stream)
        self.k = sk.to_device(Layer.stack(layers), self.stream)

    def _halves(self, flip: bool) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        # the current level carries one ghost cell past its end for the outer boundary
        lo = self.temps.view(0, CELLS + 1)
        hi = self.temps.view(CELLS, 2 * CELLS)
        return (hi, lo) if flip else (lo, hi)

    def _launch(self, src: sk.DeviceBuffer, dst: sk.DeviceBuffer, dt: float) -> None:
        conduct.launch(self.prepared, self.stream, src, self.k, dst, dt)

    def _panel_pass(self, step: int, dt: float) -> None:
        src, dst = self._halves(flip=step % 2 == 1)
        self._launch(src, dst, dt)

    def night(self, hours: int, steps_per_hour: int = 4) -> Night:
        for step in range(hours * steps_per_hour):
            self._panel_pass(step, dt=0.8)
        final = self.temps.to_numpy(self.stream)[:CELLS]
        return Night(hours, float(final[0]), float(final[-1]))


def main() -> None:
    dev = sk.Device.default()
    walls = {
        "single felt": [Canvas(16), Felt(96, 2.0), Canvas(16)],
        "double felt": [Canvas(16), Felt(96, 5.0), Canvas(16)],
    }
    for name, layers in walls.items():
        result = Yurt(dev, layers, stove_c=22.0, outside_c=-25.0).night(hours=3)
        print(f"{name:12s} after {result.hours} h: inner face {result.inner_face:6.1f} C, outer {result.outer_face:6.1f} C")


if __name__ == "__main__":
    main()
