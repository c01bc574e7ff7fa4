# fresh-expect: clean
# fresh-note: A scale/tanh MLP with manual forward and backward; backward gradient buffers come from a workspace pool that keeps two buffers per size and alternates between them, so each backward reads one and writes the other.
"""Manual backward pass through a small elementwise network (scale -> tanh -> scale -> tanh).

Gradient buffers for the backward pass come from a double-buffered workspace: for each size the pool keeps two
buffers and hands them out alternately, so a layer's incoming gradient and its outgoing gradient never share
memory, and a deep network still allocates only two gradient buffers per size.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024


@simt.kernel
@simt.launch_contract(block=128)
def mul(x: Slice[f32], w: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * w[i])


@simt.kernel
@simt.launch_contract(block=128)
def tanh_fwd(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(math.tanh(x[i]))


@simt.kernel
@simt.launch_contract(block=128)
def tanh_bwd(y: Slice[f32], grad_out: Slice[f32], grad_in: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := grad_in.get_mut(idx)) is not None:
        o.set(grad_out[i] * (1.0 - y[i] * y[i]))


class PingPongWorkspace:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._cycles: dict[int, itertools.cycle] = {}

    def get(self, n: int) -> sk.DeviceBuffer[f32]:
        if n not in self._cycles:
            self._cycles[n] = itertools.cycle([sk.zeros(n, f32, self.stream), sk.zeros(n, f32, self.stream)])
        return next(self._cycles[n])


class Scale:
    def __init__(self, w: np.ndarray, ws: PingPongWorkspace, dev: sk.Device) -> None:
        self.w, self.ws = sk.to_device(w, ws.stream), ws
        self.prep = mul.prepare(simt.LaunchConfig1D.for_len(len(w), block=128), dev)

    def forward(self, x: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        out = sk.zeros(len(x), f32, self.ws.stream)
        mul.launch(self.prep, self.ws.stream, x, self.w, out)
        return out

    def backward(self, grad_out: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        grad_in = self.ws.get(len(grad_out))
        mul.launch(self.prep, self.ws.stream, grad_out, self.w, grad_in)
        return grad_in


class Tanh:
    def __init__(self, ws: PingPongWorkspace, dev: sk.Device) -> None:
        self.ws, self.dev = ws, dev
        self.y: sk.DeviceBuffer[f32] | None = None

    def forward(self, x: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        out = sk.zeros(len(x), f32, self.ws.stream)
        tanh_fwd.launch(tanh_fwd.prepare(simt.LaunchConfig1D.for_len(len(x), block=128), self.dev), self.ws.stream, x, out)
        self.y = out
        return out

    def backward(self, grad_out: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        assert self.y is not None, "backward before forward"
        grad_in = self.ws.get(len(grad_out))
        prep = tanh_bwd.prepare(simt.LaunchConfig1D.for_len(len(grad_out), block=128), self.dev)
        tanh_bwd.launch(prep, self.ws.stream, self.y, grad_out, grad_in)
        return grad_in


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    ws = PingPongWorkspace(stream)
    rng = np.random.default_rng(22)
    layers = [Scale(rng.uniform(0.5, 1.5, N).astype(np.float32), ws, dev), Tanh(ws, dev),
              Scale(rng.uniform(0.5, 1.5, N).astype(np.float32), ws, dev), Tanh(ws, dev)]
    h = sk.to_device(rng.standard_normal(N).astype(np.float32), stream)
    for layer in layers:
        h = layer.forward(h)
    y = h.to_numpy(stream)
    grad = sk.to_device((2.0 * y / N).astype(np.float32), stream)
    for layer in reversed(layers):
        grad = layer.backward(grad)
    print("loss", round(float(np.mean(y ** 2)), 4), "| dx norm", round(float(np.linalg.norm(grad.to_numpy(stream))), 4))


if __name__ == "__main__":
    main()
