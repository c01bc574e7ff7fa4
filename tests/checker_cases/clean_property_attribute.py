"""The clean twin of `e0502_property_attribute`: the property returns the weights, which launches only read, and
a property with a setter (which may store anything) is a value of its own."""

from typing import Any

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


class Model:
    def __init__(self, stream: sk.Stream) -> None:
        self.weights = sk.to_device(np.ones(32, np.float32), stream)
        self.out = sk.zeros(32, f32, stream)
        self._bias = sk.to_device(np.ones(32, np.float32), stream)

    @property
    def params(self) -> Any:
        return self.weights

    @property
    def bias(self) -> Any:
        return self._bias

    @bias.setter
    def bias(self, value: Any) -> None:
        self._bias = value

    def refine(self, prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
        vecadd.launch(prep, stream, self.params, self.weights, self.out)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    model = Model(stream)
    vecadd.launch(prep, stream, model.params, model.bias, model.out)
    model.refine(prep, stream)
