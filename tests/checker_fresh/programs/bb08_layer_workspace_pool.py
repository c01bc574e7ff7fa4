# fresh-expect: E0502 at line 72
# fresh-known-miss: cli,mypy a workspace pool's `get(n)` hands one cached buffer per size to two layers' backward passes: the buffers a pool hands out are new values
# fresh-note: Scale/ReLU MLP with manual forward/backward whose gradient buffers come from a size-keyed Workspace pool. Bug: the pool hands out one buffer per size, so in the backward chain ReLU writes the pooled buffer and the next `Scale.backward` gets it both as `grad_out` (Slice) and as its pooled `grad_in` (DisjointSlice) (E0502).
"""A tiny MLP (scale -> ReLU -> scale) with hand-written forward and backward passes.
Each layer saves what backward needs; gradient buffers for the backward pass come from a workspace pool keyed
by size, so a deep network does not allocate a fresh buffer for every activation gradient each step.
"""

from __future__ import annotations

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
def relu_fwd(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i], 0.0))


@simt.kernel
@simt.launch_contract(block=128)
def relu_bwd(x: Slice[f32], grad_out: Slice[f32], grad_in: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := grad_in.get_mut(idx)) is not None:
        o.set(grad_out[i] if x[i] > 0.0 else 0.0)


class Workspace:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._free: dict[int, sk.DeviceBuffer[f32]] = {}

    def get(self, n: int) -> sk.DeviceBuffer[f32]:
        if n not in self._free:
            self._free[n] = sk.zeros(n, f32, self.stream)
        return self._free[n]


class Scale:
    def __init__(self, w: np.ndarray, ws: Workspace, dev: sk.Device) -> None:
        self.w = sk.to_device(w, ws.stream)
        self.ws = ws
        self.prep = mul.prepare(simt.LaunchConfig1D.for_len(len(w), block=128), dev)

    def forward(self, x: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        out = sk.zeros(len(x), f32, self.ws.stream)
        mul.launch(self.prep, self.ws.stream, x, self.w, out)
        return out

    def backward(self, grad_out: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        grad_in = self.ws.get(len(grad_out))
        mul.launch(self.prep, self.ws.stream, grad_out, self.w, grad_in)
        return grad_in


class ReLU:
    def __init__(self, ws: Workspace, dev: sk.Device) -> None:
        self.ws = ws
        self.dev = dev
        self.saved: sk.DeviceBuffer[f32] | None = None

    def forward(self, x: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        self.saved = x
        out = sk.zeros(len(x), f32, self.ws.stream)
        relu_fwd.launch(relu_fwd.prepare(simt.LaunchConfig1D.for_len(len(x), block=128), self.dev), self.ws.stream, x, out)
        return out

    def backward(self, grad_out: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        assert self.saved is not None, "backward before forward"
        grad_in = self.ws.get(len(grad_out))
        prep = relu_bwd.prepare(simt.LaunchConfig1D.for_len(len(grad_out), block=128), self.dev)
        relu_bwd.launch(prep, self.ws.stream, self.saved, grad_out, grad_in)
        return grad_in


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    ws = Workspace(stream)
    rng = np.random.default_rng(4)
    layers = [
        Scale(rng.uniform(0.5, 1.5, N).astype(np.float32), ws, dev),
        ReLU(ws, dev),
        Scale(rng.uniform(0.5, 1.5, N).astype(np.float32), ws, dev),
        ReLU(ws, dev),
    ]
    x = sk.to_device(rng.standard_normal(N).astype(np.float32), stream)
    h = x
    for layer in layers:
        h = layer.forward(h)
    y = h.to_numpy(stream)
    grad = sk.to_device((2.0 * y / N).astype(np.float32), stream)
    for layer in reversed(layers):
        grad = layer.backward(grad)
    print("loss", round(float(np.mean(y ** 2)), 4), "| dx norm", round(float(np.linalg.norm(grad.to_numpy(stream))), 4))


if __name__ == "__main__":
    main()
