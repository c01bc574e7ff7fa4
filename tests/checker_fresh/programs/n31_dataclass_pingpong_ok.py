# fresh-expect: clean
"""A dataclass ping-pongs between two buffers, swapping the attributes after each step."""
from dataclasses import dataclass
from typing import Any

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
class PingPong:
    src: Any
    dst: Any
    inc: Any
    prepared: Any

    def step(self, stream: Any) -> None:
        vecadd.launch(self.prepared, stream, self.src, self.inc, self.dst)
        self.src, self.dst = self.dst, self.src


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 64
pp = PingPong(sk.zeros(n, f32, stream), sk.zeros(n, f32, stream), sk.to_device(np.ones(n, np.float32), stream),
              vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev))
for _ in range(4):
    pp.step(stream)
assert (pp.src.to_numpy(stream) == 4.0).all()
