# fresh-expect: E0502 at line 110
# fresh-note: Runs registered per-phase callbacks over truffle-scent grids; ScentField.buffer_for(Phase.SMOOTH) falls back to the readings buffer itself, so the smoothing launch passes one buffer as both the Slice input and the DisjointSlice output.
"""Truffle-dog scent trials: smooth and threshold a grid of scent readings per training phase."""
from __future__ import annotations

import enum
from typing import Callable, NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def smooth_row(src: Slice[f32], out: DisjointSlice[f32], width: int) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        col = i % width
        acc = src[i] * 0.5
        if col > 0:
            acc += src[i - 1] * 0.25
        else:
            acc += src[i] * 0.25
        if col + 1 < width:
            acc += src[i + 1] * 0.25
        else:
            acc += src[i] * 0.25
        o.set(acc)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def threshold(src: Slice[f32], out: DisjointSlice[f32], cutoff: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        hit = f32(0.0)
        if src[i] > cutoff:
            hit = f32(1.0)
        o.set(hit)


class Phase(enum.Enum):
    SMOOTH = enum.auto()
    DETECT = enum.auto()


class TrialResult(NamedTuple):
    dog: str
    hits: int
    best_cell: int


class ScentField:
    """A buried-truffle test plot: readings plus one output buffer per phase."""

    def __init__(self, readings: np.ndarray, width: int, stream: sk.Stream) -> None:
        self.width = width
        self.stream = stream
        self._grid = sk.to_device(readings.astype(np.float32).ravel(), stream)
        self._outputs = {Phase.DETECT: sk.zeros(readings.size, f32, stream)}

    @property
    def readings(self) -> sk.DeviceBuffer:
        return self._grid

    def buffer_for(self, phase: Phase) -> sk.DeviceBuffer:
        # smoothing is "in place" to save memory on the handler's tablet
        return self._outputs.get(phase, self._grid)

    def __len__(self) -> int:
        return self._grid.length


class Trial:
    @staticmethod
    def config(n: int) -> simt.LaunchConfig1D:
        return simt.LaunchConfig1D.for_len(n, block=BLOCK)

    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self.handlers: dict[Phase, Callable[[ScentField], None]] = {}

    def on(self, phase: Phase) -> Callable[[Callable[[ScentField], None]], Callable[[ScentField], None]]:
        def register(fn: Callable[[ScentField], None]) -> Callable[[ScentField], None]:
            self.handlers[phase] = fn
            return fn
        return register

    def run(self, dog: str, field: ScentField) -> TrialResult:
        for phase in Phase:
            self.handlers[phase](field)
        hits = field.buffer_for(Phase.DETECT).to_numpy(field.stream)
        return TrialResult(dog, int(hits.sum()), int(hits.argmax()))


def build_trial(dev: sk.Device) -> Trial:
    trial = Trial(dev)
    smooth_launch = smooth_row.prepare(Trial.config(32 * 16), dev)
    detect_launch = threshold.prepare(Trial.config(32 * 16), dev)

    @trial.on(Phase.SMOOTH)
    def _smooth(field: ScentField) -> None:
        smooth_row.launch(smooth_launch, field.stream, field.readings, field.buffer_for(Phase.SMOOTH), field.width)

    @trial.on(Phase.DETECT)
    def _detect(field: ScentField) -> None:
        threshold.launch(detect_launch, field.stream, field.buffer_for(Phase.SMOOTH), field.buffer_for(Phase.DETECT), 0.6)

    return trial


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    trial = build_trial(dev)
    for dog in ("Lagotto", "Bruna"):
        plot = rng.random((16, 32)) * 0.8
        plot[rng.integers(16), rng.integers(32)] = 3.0
        result = trial.run(dog, ScentField(plot, 32, stream))
        print(f"{result.dog:8s} {result.hits:3d} hits, strongest cell {result.best_cell}")


if __name__ == "__main__":
    main()
