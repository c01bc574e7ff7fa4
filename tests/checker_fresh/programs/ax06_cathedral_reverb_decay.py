# fresh-expect: clean
# fresh-note: Models reverberant energy decay per cathedral surface with ping-pong buffers and two overlapping launch_async ops that only share an input; both are synced before any buffer is read or reused.
"""Cathedral acoustics: per-band energy decay of the nave for stone, oak and glass surfaces."""
from __future__ import annotations

import abc
import functools
import math
from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BANDS = 96
BLOCK = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def absorb(energy: Slice[f32], coeff: Slice[f32], out: DisjointSlice[f32], area: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(energy[i] * (1.0 - coeff[i] * area))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def to_decibels(energy: Slice[f32], ref: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(10.0 * math.log10(max(energy[i], 1e-12) / ref[i]))


class Surface(abc.ABC):
    def __init__(self, area_fraction: float) -> None:
        self.area_fraction = area_fraction

    @property
    @abc.abstractmethod
    def absorption(self) -> np.ndarray: ...

    def coefficients(self, stream: sk.Stream) -> sk.DeviceBuffer:
        return sk.to_device(self.absorption.astype(np.float32), stream)


class Limestone(Surface):
    @property
    def absorption(self) -> np.ndarray:
        return np.linspace(0.01, 0.04, BANDS)


class OakPews(Surface):
    @property
    def absorption(self) -> np.ndarray:
        return np.linspace(0.15, 0.08, BANDS)


class StainedGlass(Surface):
    @property
    def absorption(self) -> np.ndarray:
        return 0.03 + 0.02 * np.cos(np.linspace(0, np.pi, BANDS))


class DecayCurve(NamedTuple):
    surface: str
    rt60_band: int
    drop_db: float


class Nave:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        cfg = simt.LaunchConfig1D.for_len(BANDS, block=BLOCK)
        self.absorb = functools.partial(absorb.launch, absorb.prepare(cfg, dev), self.stream)
        self.db_launch = to_decibels.prepare(cfg, dev)

    def decay(self, surface: Surface, reflections: int) -> DecayCurve:
        start = sk.to_device(np.ones(BANDS, np.float32), self.stream)
        coeff = surface.coefficients(self.stream)
        energy, scratch = sk.to_device(np.ones(BANDS, np.float32), self.stream), sk.zeros(BANDS, f32, self.stream)
        for _ in range(reflections):
            self.absorb(energy, coeff, scratch, surface.area_fraction)
            energy, scratch = scratch, energy
        db = sk.zeros(BANDS, f32, self.stream)
        ratio = sk.zeros(BANDS, f32, self.stream)
        # both ops read `energy`; each writes its own buffer
        level = to_decibels.launch_async(self.db_launch, energy, start, db)
        relative = to_decibels.launch_async(self.db_launch, energy, coeff, ratio)
        level.sync_on(self.stream)
        relative.sync_on(self.stream)
        curve = db.to_numpy(self.stream)
        worst = int(np.argmax(curve))
        return DecayCurve(type(surface).__name__, worst, float(curve.min()))


def main() -> None:
    nave = Nave(sk.Device.default())
    for surface in (Limestone(0.6), OakPews(0.25), StainedGlass(0.15)):
        curve = nave.decay(surface, reflections=20)
        print(f"{curve.surface:12s} band {curve.rt60_band:3d} slowest, deepest drop {curve.drop_db:7.2f} dB")


if __name__ == "__main__":
    main()
