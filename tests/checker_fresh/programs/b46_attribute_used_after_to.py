# fresh-expect: E0382 at line 37
"""A class moves its buffer to the same device (a plain move) and keeps using the old handle."""
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


class Holder:
    def __init__(self, stream) -> None:
        self.buf = sk.to_device(np.ones(32, np.float32), stream)
        self.out = sk.zeros(32, f32, stream)

    def refresh(self, dev, stream) -> None:
        fresh = self.buf.to(self.buf.device, stream)
        k = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
        vecadd.launch(k, stream, fresh, self.buf, self.out)  # BUG E0382


dev = sk.Device.cpu()
stream = dev.new_stream()
Holder(stream).refresh(dev, stream)
