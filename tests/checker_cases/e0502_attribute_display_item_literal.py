"""An attribute `__init__` binds to a list display (`self.fields = [a, b]`) keeps its items in the class's other
methods: `self.fields[0]` read twice is one buffer, so a launch reading it as input and writing it as output is
refused (`BorrowError` at run time), as for a local name bound to a display."""

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
        smooth.launch(self.prep, self.stream, self.fields[0], self.fields[0])  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    Solver(dev, dev.new_stream()).step()


if __name__ == "__main__":
    main()
