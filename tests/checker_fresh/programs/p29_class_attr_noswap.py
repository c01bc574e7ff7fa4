# fresh-expect: E0502 at line 25
"""Ping-pong without a second buffer: the back buffer is the front one."""
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

class PingPong:
    def __init__(self, stream):
        self.front = sk.to_device(np.ones(128, np.float32), stream)
        self.back = self.front
        self.bias = sk.to_device(np.ones(128, np.float32), stream)

    def step(self, prepared, stream):
        vecadd.launch(prepared, stream, self.front, self.bias, self.back)  # BUG


dev = sk.Device.cpu()
stream = dev.new_stream()
pp = PingPong(stream)
pp.step(vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev), stream)
