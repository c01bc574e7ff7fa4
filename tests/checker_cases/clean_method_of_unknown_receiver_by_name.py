"""Methods called on objects whose class the checker cannot tell run the module's method of that name: handed
distinct input and output buffers, each launch is fine, and a method name the module's classes do not define
(`layer.describe()`) or one the ownership table gives a meaning (`op.sync_on(stream)`) is not dispatched by name."""

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
        axpy.launch(self.prep, self.stream, x, self.bias, out)

    def describe(self) -> str:
        return "axpy layer"


class Model:
    def __init__(self, prep: Any, stream: Any, bias: Any) -> None:
        self.layers = [Layer(prep, stream, bias), Layer(prep, stream, bias)]

    def run(self, x: Any, y: Any) -> None:
        for layer in self.layers:
            layer.forward(x, y)
            x, y = y, x


class Block:
    def __init__(self, norm: Layer) -> None:
        self.norm = norm

    def run(self, x: Any, y: Any) -> None:
        self.norm.forward(x, y)


def pipeline(model: Model, stream: sk.Stream) -> None:
    x = sk.to_device(np.ones(64, np.float32), stream)
    y = sk.zeros(64, f32, stream)
    for layer in model.layers:
        print(layer.describe())
        layer.forward(x, y)
    print(y.to_numpy(stream)[:2])


if __name__ == "__main__":
    device = sk.Device.cpu()
    s = device.new_stream()
    model = Model(axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), device), s, sk.zeros(64, f32, s))
    model.run(sk.to_device(np.ones(64, np.float32), s), sk.zeros(64, f32, s))
    pipeline(model, s)
    Block(model.layers[0]).run(sk.to_device(np.ones(64, np.float32), s), sk.zeros(64, f32, s))
