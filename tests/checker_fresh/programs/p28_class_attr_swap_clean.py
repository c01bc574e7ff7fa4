# fresh-expect: clean
"""Ping-pong buffers as instance attributes swapped after each launch."""
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
        self.back = sk.zeros(128, f32, stream)
        self.bias = sk.to_device(np.ones(128, np.float32), stream)

    def step(self, prepared, stream):
        vecadd.launch(prepared, stream, self.front, self.bias, self.back)
        self.front, self.back = self.back, self.front


dev = sk.Device.cpu()
stream = dev.new_stream()
pp = PingPong(stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
for _ in range(4):
    pp.step(prepared, stream)
print(pp.front.to_numpy(stream)[:2])
