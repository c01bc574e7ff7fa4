# fresh-expect: clean
# fresh-note: Orchard frost alarm; a canopy-temperature diffusion ping-pongs between two distinct work buffers built by a list comprehension, with an atomic counter of frost cells.
"""Night-time canopy temperature across orchard rows and a frost-fan alarm."""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

ROWS = 12
TREES = 40
RADIATIVE_LOSS = 0.35     # degC per step under a clear sky
MIXING = 0.15
FROST_C = -1.5


@simt.kernel
@simt.launch_contract(block=128)
def cool_and_mix(src: Slice[f32], dst: DisjointSlice[f32], loss: f32, mixing: f32, width: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        here = src[i]
        west = here
        east = here
        if i % width > 0:
            west = src[i - 1]
        if i % width < width - 1:
            east = src[i + 1]
        out.set(here - loss + mixing * (west + east - 2.0 * here))


@simt.kernel
@simt.launch_contract(block=128)
def count_frost(temps: Slice[f32], alarms: AtomicSlice[i32], threshold: f32) -> None:
    i = thread.index_1d().get()
    if i < len(temps):
        if temps[i] < threshold:
            alarms.fetch_add(0, 1)


class Orchard:
    def __init__(self, dev: sk.Device, stream: sk.Stream, dusk: np.ndarray) -> None:
        self.stream = stream
        n = dusk.size
        self._work = [sk.zeros(n, f32, stream) for _ in range(2)]
        self._work[0] = sk.to_device(dusk.astype(np.float32).ravel(), stream)
        self._tick = 0
        cfg = simt.LaunchConfig1D.for_len(n, block=128)
        self._step = cool_and_mix.prepare(cfg, dev)
        self._count = count_frost.prepare(cfg, dev)
        self.alarms = sk.zeros(1, i32, stream)
        self.minima: list[float] = []

    @property
    def front(self) -> sk.DeviceBuffer:
        return self._work[self._tick % 2]

    @property
    def back(self) -> sk.DeviceBuffer:
        return self._work[(self._tick + 1) % 2]

    def cool(self, steps: int, loss: float = RADIATIVE_LOSS) -> Orchard:
        for _ in range(steps):
            cool_and_mix.launch(self._step, self.stream, self.front, self.back, loss, MIXING, TREES)
            self._tick += 1
            self.minima.append(float(self.front.to_numpy(self.stream).min()))
        return self

    def check_frost(self) -> int:
        count_frost.launch(self._count, self.stream, self.front, self.alarms, FROST_C)
        return int(self.alarms.to_numpy(self.stream)[0])


def dusk_temperatures(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    slope = np.linspace(2.5, 0.5, ROWS)[:, None]       # cold air pools at the bottom rows
    return slope + rng.normal(0.0, 0.3, (ROWS, TREES))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    orchard = Orchard(dev, stream, dusk_temperatures(4))
    for hour in range(1, 7):
        frost_cells = orchard.cool(steps=2).check_frost()
        print(f"{hour:02d}:00 min {orchard.minima[-1]:+5.2f} C, frost cell-steps so far {frost_cells}")
        if frost_cells > ROWS * TREES // 4:
            print("start the wind machines")
            break
    grid = orchard.front.to_numpy(stream).reshape(ROWS, TREES)
    print("coldest row:", int(np.argmin(grid.mean(axis=1))))


if __name__ == "__main__":
    main()
