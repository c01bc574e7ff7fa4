# fresh-expect: E0502 at line 33
"""A property exposes the output buffer under a second name."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class Model:
    def __init__(self, stream) -> None:
        self.weights = sk.to_device(np.ones(128, np.float32), stream)
        self.out = sk.zeros(128, f32, stream)

    @property
    def result(self):
        return self.out


dev = sk.Device.cpu()
stream = dev.new_stream()
m = Model(stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
vecadd.launch(prepared, stream, m.weights, m.result, m.out)  # BUG
