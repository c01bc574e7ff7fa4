# fresh-expect: E0502 at line 36
"""A ping-pong pair unpacks through __iter__; after a swap written as two assignments both names are one buffer."""
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
    def __init__(self, front, back) -> None:
        self.front = front
        self.back = back

    def __iter__(self):
        return iter((self.front, self.back))


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 64
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
ones = sk.to_device(np.ones(n, np.float32), stream)
pp = PingPong(sk.zeros(n, f32, stream), sk.zeros(n, f32, stream))
for _ in range(3):
    src, dst = pp
    vecadd.launch(prepared, stream, src, ones, dst)  # BUG E0502 (second step)
    pp.front = dst
    pp.back = pp.front
