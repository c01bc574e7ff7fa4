# fresh-expect: E0133 at line 65
# fresh-note: Sorts açaí crates by ripeness; the base Sorter opens `with simt.unsafe():` around its _dispatch hook, but FastSorter's override calls launch_unchecked in its own method body, which that lexical block does not cover.
"""Açaí berry sorting line (Pará): scores berry ripeness from colour readings, batch after batch off the boats."""
from __future__ import annotations

import collections
import time
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BERRIES = 512


@simt.kernel
@simt.launch_contract(block=128)
def ripeness(hue: Slice[f32], gloss: Slice[f32], score: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := score.get_mut(idx)) is not None:
        cell.set((1.0 - hue[i]) * 0.7 + gloss[i] * 0.3)


@dataclass
class Crate:
    boat: str
    hue: np.ndarray
    gloss: np.ndarray


class Sorter:
    """Safe sorting line: every launch goes through the prepared, contract-checked path."""

    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.n = n
        self.config = simt.LaunchConfig1D.for_len(n, block=128)
        self.prepared = ripeness.prepare(self.config, device)
        self.score = sk.zeros(n, f32, self.stream)
        self.timings: list[float] = []

    def _dispatch(self, hue: sk.DeviceBuffer, gloss: sk.DeviceBuffer) -> None:
        ripeness.launch(self.prepared, self.stream, hue, gloss, self.score)

    def sort(self, crate: Crate) -> float:
        hue = sk.to_device(crate.hue.astype(np.float32), self.stream)
        gloss = sk.to_device(crate.gloss.astype(np.float32), self.stream)
        start = time.perf_counter()
        with simt.unsafe():
            # subclasses may take the unchecked fast path; the block is opened here for them
            self._dispatch(hue, gloss)
        self.timings.append(time.perf_counter() - start)
        scores = self.score.to_numpy(self.stream)
        return float((scores > 0.55).mean())


class FastSorter(Sorter):
    """High-season line: the launch was validated once at start-up, so skip the per-crate checks."""

    def _dispatch(self, hue: sk.DeviceBuffer, gloss: sk.DeviceBuffer) -> None:
        ripeness.launch_unchecked(self.config, self.stream, hue, gloss, self.score)


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(71)
    line = FastSorter(device, BERRIES)
    boats = collections.deque(
        Crate(boat, rng.uniform(0.0, 0.6, BERRIES), rng.uniform(0.2, 1.0, BERRIES))
        for boat in ("Igarapé-Miri", "Abaetetuba", "Cametá")
    )
    grades = {}
    while boats:
        crate = boats.popleft()
        grades[crate.boat] = line.sort(crate)
    for boat, frac in grades.items():
        print(f"{boat:>13}: {frac:.1%} export grade")
    print(f"mean launch time {np.mean(line.timings) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
