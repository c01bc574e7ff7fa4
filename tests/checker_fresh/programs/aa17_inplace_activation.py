# fresh-expect: E0502 at line 57
# fresh-note: found since: `super().forward(x)` runs the base class's method on the receiver (with the `self._out = x` just stored) and the class-body kernel of the receiver's class (`kernel = relu`), so its launch writing through `self.output` while reading `x` is E0502 at the call (the runtime raises inside, at line 57)
"""A tiny sequential MLP-style block built from elementwise SIMT layers.

Layers own their output buffers; `Sequential` feeds each layer the previous one's output. A memory-saving
`InplaceReLU` variant is used in the deeper configuration.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HIDDEN = 256


@simt.kernel
@simt.launch_contract(block=128)
def scale_bias(x: Slice[f32], w: Slice[f32], y: DisjointSlice[f32], b: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * w[i] + b)


@simt.kernel
@simt.launch_contract(block=128)
def relu(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(max(x[i], f32(0.0)))


class Layer:
    kernel: ClassVar[Any]

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = self.kernel.prepare(simt.LaunchConfig1D.for_len(HIDDEN, block=128), dev)
        self._out = sk.zeros(HIDDEN, f32, stream)

    @property
    def output(self) -> sk.DeviceBuffer:
        return self._out

    def extra_args(self) -> tuple[Any, ...]:
        return ()

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        self.kernel.launch(self.prep, self.stream, x, *self.extra_args(), self.output)
        return self.output


class ScaleBias(Layer):
    kernel = scale_bias

    def __init__(self, dev: sk.Device, stream: sk.Stream, w: np.ndarray, b: float) -> None:
        super().__init__(dev, stream)
        self.w = sk.to_device(w, stream)
        self.b = b

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        scale_bias.launch(self.prep, self.stream, x, self.w, self.output, self.b)
        return self.output


class ReLU(Layer):
    kernel = relu


class InplaceReLU(ReLU):
    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        self._out = x
        return super().forward(x)


class Sequential:
    def __init__(self, *layers: Layer) -> None:
        self.layers = list(layers)

    def __call__(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        for layer in self.layers:
            x = layer.forward(x)
        return x


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(0)
    w1, w2 = (rng.standard_normal(HIDDEN).astype(np.float32) for _ in range(2))
    net = Sequential(ScaleBias(dev, stream, w1, 0.1), ReLU(dev, stream),
                     ScaleBias(dev, stream, w2, -0.2), InplaceReLU(dev, stream))
    x = sk.to_device(rng.standard_normal(HIDDEN).astype(np.float32), stream)
    y = net(x).to_numpy(stream)
    print(f"active units: {int((y > 0).sum())}/{HIDDEN}, mean {y.mean():.4f}")


if __name__ == "__main__":
    main()
