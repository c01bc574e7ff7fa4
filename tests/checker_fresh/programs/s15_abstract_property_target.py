# fresh-expect: E0502 at line 61
"""An abstract base class declares the output as an abstract property; the in-place subclass returns its input from
it."""
from abc import ABC, abstractmethod

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


class BiasStage(ABC):
    def __init__(self, prepared, x, bias) -> None:
        self.prepared = prepared
        self.x = x
        self.bias = bias

    @property
    @abstractmethod
    def target(self): ...

    def run(self, stream) -> None:
        vecadd.launch(self.prepared, stream, self.x, self.bias, self.target)


class InPlaceBias(BiasStage):
    @property
    def target(self):
        return self.x


class FreshBias(BiasStage):
    def __init__(self, prepared, x, bias, out) -> None:
        super().__init__(prepared, x, bias)
        self.out = out

    @property
    def target(self):
        return self.out


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 256
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
x = sk.to_device(np.ones(n, np.float32), stream)
b = sk.to_device(np.ones(n, np.float32), stream)
stages = [FreshBias(prepared, x, b, sk.zeros(n, f32, stream)), InPlaceBias(prepared, x, b)]
for stage in stages:
    stage.run(stream)  # BUG
