# fresh-expect: E0308 at line 34
"""A class caches one prepared launch and uses it for the wrong kernel."""
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


@simt.kernel
@simt.launch_contract(block=32)
def vecsub(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] - b[i])


class Arith:
    def __init__(self, dev, n: int) -> None:
        self.add_launch = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=32), dev)

    def sub(self, stream, a, b, out) -> None:
        vecsub.launch(self.add_launch, stream, a, b, out)  # BUG E0308


dev = sk.Device.cpu()
stream = dev.new_stream()
ones = sk.to_device(np.ones(32, np.float32), stream)
Arith(dev, 32).sub(stream, ones, ones, sk.zeros(32, f32, stream))
