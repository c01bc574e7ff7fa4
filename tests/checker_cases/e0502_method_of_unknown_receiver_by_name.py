"""A method called on an object whose class the checker cannot tell (an item of a list an attribute holds, a
parameter of unknown type) may run any method of that name the module's classes define, as Python dispatches by
name: `layer.forward(x, x)` (or `self.norm.forward(x, x)`) runs `Layer.forward`, whose launch reads its first argument and writes its second, so
handing it one buffer twice is an aliasing launch (also when `x` is a parameter of unknown type: the launch inside
says it is a buffer)."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


class Layer:
    def __init__(self, prep: Any, stream: Any, bias: Any) -> None:
        self.prep = prep
        self.stream = stream
        self.bias = bias

    def forward(self, x: Any, out: Any) -> None:
        axpy.launch(self.prep, self.stream, x, self.bias, out)  # expect: E0502


class Model:
    def __init__(self, prep: Any, stream: Any, bias: Any) -> None:
        self.layers = [Layer(prep, stream, bias), Layer(prep, stream, bias)]

    def run(self, x: Any) -> None:
        for layer in self.layers:
            layer.forward(x, x)


class Block:
    def __init__(self, norm: Layer) -> None:
        self.norm = norm

    def run(self, x: Any) -> None:
        self.norm.forward(x, x)


def pipeline(model: Model, stream: sk.Stream) -> None:
    x = sk.to_device(np.ones(64, np.float32), stream)
    for layer in model.layers:
        layer.forward(x, x)


if __name__ == "__main__":
    device = sk.Device.cpu()
    s = device.new_stream()
    model = Model(axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), device), s, sk.zeros(64, f32, s))
    model.run(sk.zeros(64, f32, s))
