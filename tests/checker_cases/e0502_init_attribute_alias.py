"""An attribute alias made in `__init__` (`self.back = self.front`) and never rebound: every method sees the two
attributes as one buffer, so a method launching with one read and the other written is an aliasing launch."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class PingPong:
    def __init__(self, stream: sk.Stream) -> None:
        self.front = sk.to_device(np.ones(32, np.float32), stream)
        self.back = self.front
        self.bias = sk.to_device(np.ones(32, np.float32), stream)

    def step(self, prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
        vecadd.launch(prep, stream, self.front, self.bias, self.back)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    PingPong(stream).step(vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev), stream)
