# fresh-expect: E0499 at line 67
# fresh-note: Skate park ramp wear model; the workspace's `section` helper pads each section with a halo that runs into the next section, so the abrasion and fatigue outputs of one launch overlap.
"""Surface wear accounting for the ramps of a municipal skate park."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 96
HALO = 2

Ramp = namedtuple("Ramp", ["name", "impacts", "coating"])


@simt.kernel
@simt.launch_contract(block=32)
def wear(impacts: Slice[f32], coating: Slice[f32], abrasion: DisjointSlice[f32],
         fatigue: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (a := abrasion.get_mut(idx)) is not None:
        a.set(k * impacts[i] / (coating[i] + f32(0.5)))
    if (f := fatigue.get_mut(thread.index_1d())) is not None:
        f.set(impacts[i] * impacts[i] * f32(0.01))


class WearWorkspace:
    """One allocation per shift, cut into sections for the kernels."""

    def __init__(self, stream: sk.Stream, sections: int) -> None:
        self.width = CELLS
        self.arena = sk.zeros(sections * CELLS + HALO, f32, stream)

    def section(self, index: int) -> sk.DeviceBuffer:
        start = index * self.width
        return self.arena.view(start, start + self.width + HALO)


def shift_report(ramp: Ramp, abrasion: np.ndarray, fatigue: np.ndarray) -> str:
    worst = int(np.argmax(abrasion))
    return f"{ramp.name}: worst cell {worst} ({abrasion[worst]:.3f}), fatigue {fatigue.sum():.2f}"


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    ramps = [
        Ramp("quarter-pipe", sk.to_device(rng.gamma(2.0, 3.0, CELLS).astype(np.float32), stream),
             sk.to_device(rng.uniform(1, 2, CELLS).astype(np.float32), stream)),
        Ramp("funbox", sk.to_device(rng.gamma(1.5, 2.0, CELLS).astype(np.float32), stream),
             sk.to_device(rng.uniform(1, 3, CELLS).astype(np.float32), stream)),
    ]
    prepared = wear.prepare(simt.LaunchConfig1D.for_len(CELLS + HALO, block=32), dev)
    for ramp in ramps:
        ws = WearWorkspace(stream, sections=2)
        abrasion, fatigue = ws.section(0), ws.section(1)
        padded_impacts = sk.to_device(np.pad(ramp.impacts.to_numpy(stream), (0, HALO)), stream)
        padded_coating = sk.to_device(np.pad(ramp.coating.to_numpy(stream), (0, HALO), constant_values=1), stream)
        wear.launch(prepared, stream, padded_impacts, padded_coating, abrasion, fatigue, 0.8)
        print(shift_report(ramp, abrasion.to_numpy(stream)[:CELLS], fatigue.to_numpy(stream)[:CELLS]))


if __name__ == "__main__":
    main()
