"""The clean twin of `e0502_helper_returns_a_conditional_pair_of_views`: the two time levels a method returns as
`(hi, lo) if flip else (lo, hi)` are disjoint halves of one buffer, so either order is a legal ping-pong launch
(a conditional expression in a `return` gives the caller either tuple, never a mix of the two)."""

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
        lo = self.temps.view(0, CELLS)
        hi = self.temps.view(CELLS, 2 * CELLS)
        return (hi, lo) if flip else (lo, hi)

    def step(self, n: int) -> None:
        src, dst = self.levels(flip=n % 2 == 1)
        conduct.launch(self.prepared, self.stream, src, dst)


def halves(buf: sk.DeviceBuffer, flip: bool) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    lo = buf.view(0, CELLS)
    hi = buf.view(CELLS, 2 * CELLS)
    return (hi, lo) if flip else (lo, hi)


def main() -> None:
    dev = sk.Device.cpu()
    wall = Wall(dev)
    for n in range(4):
        wall.step(n)
    for flip in (False, True):
        src, dst = halves(wall.temps, flip)
        conduct.launch(wall.prepared, wall.stream, src, dst)


if __name__ == "__main__":
    main()
