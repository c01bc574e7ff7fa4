# fresh-expect: E0502 at line 30
# fresh-known-miss: cli,mypy lambda binding buffers through default arguments (lambda gi=g_in, ww=w, go=g_out: k.launch(prep, s, gi, ww, go)) appended to self.ops and run later by for op in reversed(self.ops): op(); the caller passed one buffer for g_in and g_out
"""A tiny autograd tape: forward records closures, backward replays them in reverse to accumulate grads."""
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def axpy(grad_in: Slice[f32], w: Slice[f32], grad_out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := grad_out.get_mut(idx)) is not None:
        o.set(grad_in[i] * w[i])


class Tape:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self.prep = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
        self.ops: list[Callable[[], None]] = []

    def record_mul(self, g_in: sk.DeviceBuffer[f32], w: sk.DeviceBuffer[f32], g_out: sk.DeviceBuffer[f32]) -> None:
        self.ops.append(lambda gi=g_in, ww=w, go=g_out: axpy.launch(self.prep, self.stream, gi, ww, go))

    def backward(self) -> None:
        for op in reversed(self.ops):
            op()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 300
    w1 = sk.to_device(np.full(n, 2.0, dtype=np.float32), stream)
    w2 = sk.to_device(np.full(n, 3.0, dtype=np.float32), stream)
    g_loss = sk.to_device(np.ones(n, dtype=np.float32), stream)
    g_hidden = sk.zeros(n, f32, stream)
    tape = Tape(dev, stream, n)
    tape.record_mul(g_hidden, w1, g_hidden)  # second layer: the gradient is scaled "in place"
    tape.record_mul(g_loss, w2, g_hidden)
    tape.backward()
    print(g_hidden.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
