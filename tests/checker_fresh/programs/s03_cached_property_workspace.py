# fresh-expect: E0502 at line 37
"""A layer caches its workspace with functools.cached_property, which falls back to the output buffer."""
from functools import cached_property

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


class Layer:
    def __init__(self, n: int, stream, reuse_output: bool) -> None:
        self.n = n
        self.stream = stream
        self.reuse_output = reuse_output
        self.bias = sk.to_device(np.full(n, 0.25, np.float32), stream)
        self.out = sk.zeros(n, f32, stream)

    @cached_property
    def workspace(self):
        if self.reuse_output:
            return self.out  # saves memory on small devices
        return sk.zeros(self.n, f32, self.stream)

    def forward(self, prepared) -> None:
        vecadd.launch(prepared, self.stream, self.workspace, self.bias, self.out)  # BUG


dev = sk.Device.cpu()
stream = dev.new_stream()
layer = Layer(256, stream, reuse_output=True)
layer.forward(vecadd.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev))
print(layer.out.to_numpy(stream)[:4])
