# fresh-expect: E0502 at line 79
# fresh-known-miss: cli,mypy an `inplace=True` layer whose `_out` is the previous layer's `output` property, set in a subclass's `__init__` from a constructor argument: which object a property of another instance gives is not followed across objects built in a loop
"""A small multilayer perceptron classifying one feature vector, layer by layer on the SIMT track.

Layers follow a tiny module API (`forward(x) -> output buffer`, an `output` property); the activation can
work in place to save a buffer, as in many frameworks.  The logits are compared with a numpy forward pass.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def dense(w: Slice[f32], x: Slice[f32], b: Slice[f32], y: DisjointSlice[f32], n_in: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        acc = b[i]
        for j in range(n_in):
            acc += w[i * n_in + j] * x[j]
        out.set(acc)


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(x) >= len(y)",))
def relu(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(max(x[i], f32(0.0)))


class Layer:
    def __init__(self, width: int, device: sk.Device, stream: sk.Stream) -> None:
        self.width = width
        self.stream = stream
        self.config = simt.LaunchConfig1D.for_len(width, block=BLOCK)
        self._out: sk.DeviceBuffer | None = None

    @property
    def output(self) -> sk.DeviceBuffer:
        assert self._out is not None
        return self._out

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        raise NotImplementedError


class Dense(Layer):
    def __init__(self, w: np.ndarray, b: np.ndarray, device: sk.Device, stream: sk.Stream) -> None:
        super().__init__(w.shape[0], device, stream)
        self.n_in = w.shape[1]
        self.w = sk.to_device(np.ascontiguousarray(w, dtype=np.float32).ravel(), stream)
        self.b = sk.to_device(b.astype(np.float32), stream)
        self._out = sk.zeros(self.width, f32, stream)
        self.prepared = dense.prepare(self.config, device)

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        dense.launch(self.prepared, self.stream, self.w, x, self.b, self.output, self.n_in)
        return self.output


class ReLU(Layer):
    def __init__(self, source: Layer, device: sk.Device, stream: sk.Stream, inplace: bool = False) -> None:
        super().__init__(source.width, device, stream)
        self._out = source.output if inplace else sk.zeros(self.width, f32, stream)
        self.prepared = relu.prepare(self.config, device)

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        relu.launch(self.prepared, self.stream, x, self.output)
        return self.output


def build(params: list[tuple[np.ndarray, np.ndarray]], device: sk.Device, stream: sk.Stream) -> list[Layer]:
    layers: list[Layer] = []
    for k, (w, b) in enumerate(params):
        layer = Dense(w, b, device, stream)
        layers.append(layer)
        if k < len(params) - 1:
            layers.append(ReLU(layer, device, stream, inplace=True))
    return layers


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(12)
    sizes = [32, 48, 24, 10]
    params = [(rng.standard_normal((o, i)).astype(np.float32) / np.sqrt(i), rng.standard_normal(o).astype(np.float32) * 0.1)
              for i, o in zip(sizes[:-1], sizes[1:])]
    features = rng.standard_normal(sizes[0]).astype(np.float32)
    x = sk.to_device(features, stream)
    for layer in build(params, device, stream):
        x = layer.forward(x)
    logits = x.to_numpy(stream)
    h = features
    for k, (w, b) in enumerate(params):
        h = w @ h + b
        if k < len(params) - 1:
            h = np.maximum(h, 0)
    np.testing.assert_allclose(logits, h, rtol=1e-4, atol=1e-5)
    print(f"predicted class {int(np.argmax(logits))} with logit {float(logits.max()):.3f}")


if __name__ == "__main__":
    main()
