# fresh-expect: E0502 at line 44
"""A base stage launches into `self.target()`; the in-place subclass overrides it to return its input."""
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


class Stage:
    def __init__(self, prepared, src, bias, out):
        self.prepared = prepared
        self.src = src
        self.bias = bias
        self.out = out

    def target(self):
        return self.out

    def run(self, stream):
        vecadd.launch(self.prepared, stream, self.src, self.bias, self.target())


class InPlaceStage(Stage):
    def target(self):
        return self.src  # accumulate into the input, saving a buffer


dev = sk.Device.cpu()
stream = dev.new_stream()
a = sk.to_device(np.ones(128, np.float32), stream)
b = sk.to_device(np.ones(128, np.float32), stream)
c = sk.zeros(128, f32, stream)
stage = InPlaceStage(vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev), a, b, c)
stage.run(stream)  # BUG
print(a.to_numpy(stream)[:4])
