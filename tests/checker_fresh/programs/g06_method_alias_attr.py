# fresh-expect: E0502 at line 38
"""A class whose method aliases its scratch buffer to its output."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
class Accumulator:
    def __init__(self, n: int) -> None:
        self.prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=32), dev)
        self.total = sk.zeros(n, f32, stream)
        self.scratch = sk.zeros(n, f32, stream)

    def reuse(self) -> None:
        self.scratch = self.total

    def add(self, x: sk.DeviceBuffer[f32]) -> None:
        vecadd.launch(self.prepared, stream, self.scratch, x, self.total)


acc = Accumulator(64)
x = sk.to_device(np.ones(64, np.float32), stream)
acc.reuse()
vecadd.launch(acc.prepared, stream, acc.scratch, x, acc.total)  # BUG
