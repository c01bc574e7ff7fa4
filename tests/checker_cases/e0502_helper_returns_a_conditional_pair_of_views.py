"""A method returns its two time levels as `(hi, lo) if flip else (lo, hi)`, views of one buffer; the current
level carries a ghost cell past its end, so it overlaps the next level and the launch reads and writes overlapping
memory (E0502).  A conditional expression in a `return` gives the caller either tuple, as two `return`s would."""

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 64


@simt.kernel
@simt.launch_contract(block=32, requires=("len(temp) >= len(out)",))
def conduct(temp: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(temp[i] * 0.5)


class Wall:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prepared = conduct.prepare(simt.LaunchConfig1D.for_len(CELLS, block=32), dev)
        self.temps = sk.to_device(np.ones(2 * CELLS, np.float32), self.stream)

    def levels(self, flip: bool) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        lo = self.temps.view(0, CELLS + 1)  # one ghost cell past the current level
        hi = self.temps.view(CELLS, 2 * CELLS)
        return (hi, lo) if flip else (lo, hi)

    def step(self, n: int) -> None:
        src, dst = self.levels(flip=n % 2 == 1)
        conduct.launch(self.prepared, self.stream, src, dst)  # expect: E0502


def halves(buf: sk.DeviceBuffer, flip: bool) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    lo = buf.view(0, CELLS + 1)
    hi = buf.view(CELLS, 2 * CELLS)
    return (hi, lo) if flip else (lo, hi)


def main() -> None:
    dev = sk.Device.cpu()
    wall = Wall(dev)
    wall.step(0)
    src, dst = halves(wall.temps, False)
    conduct.launch(wall.prepared, wall.stream, src, dst)  # expect: E0502


if __name__ == "__main__":
    main()
