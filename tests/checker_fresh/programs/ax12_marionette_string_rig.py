# fresh-expect: E0502 at line 82
# fresh-note: ControlBar.relax() starts the string-tension launch_async through super() and then, before finish() syncs it, launches relax_lengths reading the tension buffer the pending op is still writing (and writing the lengths it reads).
"""Marionette rigging: string tensions of a puppet's control bar, and the slack each string needs to relax."""
from __future__ import annotations

import abc
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STRINGS = 96
BLOCK = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def string_tension(length: Slice[f32], mass: Slice[f32], tension: DisjointSlice[f32], g: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := tension.get_mut(idx)) is not None:
        o.set(mass[i] * g * (1.0 + 0.02 * length[i]))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def relax_lengths(tension: Slice[f32], length: DisjointSlice[f32], stiffness: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := length.get_mut(idx)) is not None:
        o.set(o.get() + tension[i] / stiffness)


@dataclass
class Limb:
    name: str
    first: int
    count: int


class Rig(abc.ABC):
    def __init__(self, dev: sk.Device, stream: sk.Stream, lengths: np.ndarray, masses: np.ndarray) -> None:
        self.stream = stream
        cfg = simt.LaunchConfig1D.for_len(STRINGS, block=BLOCK)
        self.tension_launch = string_tension.prepare(cfg, dev)
        self.relax_launch = relax_lengths.prepare(cfg, dev)
        self.lengths = sk.to_device(lengths.astype(np.float32), stream)
        self.masses = sk.to_device(masses.astype(np.float32), stream)
        self.tension = sk.zeros(STRINGS, f32, stream)
        self._pending: sk.DeviceOp | None = None

    @property
    @abc.abstractmethod
    def limbs(self) -> list[Limb]: ...

    def start_tension(self, g: float = 9.81) -> None:
        self._pending = string_tension.launch_async(self.tension_launch, self.lengths, self.masses, self.tension, g)

    def finish(self) -> np.ndarray:
        if self._pending is not None:
            self._pending.sync_on(self.stream)
            self._pending = None
        return self.tension.to_numpy(self.stream)


class ControlBar(Rig):
    def __init__(self, dev: sk.Device, stream: sk.Stream, stiffness: float) -> None:
        rng = np.random.default_rng(5)
        super().__init__(dev, stream, rng.uniform(40.0, 120.0, STRINGS), rng.uniform(0.01, 0.08, STRINGS))
        self.stiffness = stiffness

    @property
    def limbs(self) -> list[Limb]:
        return [Limb("head", 0, 16), Limb("hands", 16, 32), Limb("feet", 48, 48)]

    def relax(self) -> np.ndarray:
        super().start_tension()
        # let the strings pay out under their load while the tensions finish computing
        relax_lengths.launch(self.relax_launch, self.stream, self.tension, self.lengths, self.stiffness)
        return self.finish()


def report(bar: ControlBar) -> None:
    tensions = bar.relax()
    lengths = bar.lengths.to_numpy(bar.stream)
    for limb in bar.limbs:
        sl = slice(limb.first, limb.first + limb.count)
        print(f"{limb.name:6s} max tension {tensions[sl].max():.3f} N, mean length {lengths[sl].mean():6.1f} cm")


def main() -> None:
    dev = sk.Device.default()
    report(ControlBar(dev, dev.new_stream(), stiffness=400.0))


if __name__ == "__main__":
    main()
