"""The clean twin of `e0502_attribute_display_item_literal`: the launch reads `self.fields[0]` and writes
`self.fields[1]`, two items of the display `__init__` stored, so nothing is borrowed twice."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def smooth(cur: Slice[f32], nxt: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := nxt.get_mut(idx)) is not None:
        o.set(cur[i] * f32(0.5))


class Solver:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.fields = [sk.to_device(np.ones(32, dtype=np.float32), stream), sk.zeros(32, f32, stream)]
        self.prep = smooth.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)

    def step(self) -> None:
        smooth.launch(self.prep, self.stream, self.fields[0], self.fields[1])


def main() -> None:
    dev = sk.Device.cpu()
    Solver(dev, dev.new_stream()).step()


if __name__ == "__main__":
    main()
