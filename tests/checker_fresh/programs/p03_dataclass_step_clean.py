# fresh-expect: clean
"""A dataclass owns its buffers; its step writes a third buffer, then swaps it in."""
from dataclasses import dataclass
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


@dataclass
class Accumulator:
    total: sk.DeviceBuffer
    delta: sk.DeviceBuffer
    scratch: sk.DeviceBuffer

    def step(self, prepared, stream) -> None:
        vecadd.launch(prepared, stream, self.total, self.delta, self.scratch)
        self.total, self.scratch = self.scratch, self.total


dev = sk.Device.cpu()
stream = dev.new_stream()
acc = Accumulator(sk.zeros(128, f32, stream), sk.to_device(np.ones(128, np.float32), stream), sk.zeros(128, f32, stream))
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
for _ in range(3):
    acc.step(prepared, stream)
print(acc.total.to_numpy(stream)[:2])
