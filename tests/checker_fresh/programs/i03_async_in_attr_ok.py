# fresh-expect: clean
"""An object keeps the pending op and syncs it before moving the buffer."""
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
class Runner:
    def __init__(self) -> None:
        self.a = sk.to_device(np.ones(64, np.float32), stream)
        self.out = sk.zeros(64, f32, stream)
        self.p = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)

    def step(self) -> None:
        op = vecadd.launch_async(self.p, self.a, self.a, self.out)
        op.sync_on(stream)
        self.out = self.out.to(sk.Device.cpu(1), sk.Device.cpu(1).new_stream())


r = Runner()
r.step()
