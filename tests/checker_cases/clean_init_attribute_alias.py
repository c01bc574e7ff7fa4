"""The clean twin of `e0502_init_attribute_alias`: `__init__` gives the back buffer its own storage, and a method
that swaps the pair rebinds both attributes (so no alias made in `__init__` is assumed to last)."""

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
        self.back = sk.zeros(32, f32, stream)
        self.bias = sk.to_device(np.ones(32, np.float32), stream)

    def step(self, prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
        vecadd.launch(prep, stream, self.front, self.bias, self.back)
        self.front, self.back = self.back, self.front


class Recycled:
    def __init__(self, stream: sk.Stream) -> None:
        self.front = sk.to_device(np.ones(32, np.float32), stream)
        self.back = self.front
        self.bias = sk.to_device(np.ones(32, np.float32), stream)

    def split(self, stream: sk.Stream) -> None:
        self.back = sk.zeros(32, f32, stream)

    def step(self, prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
        vecadd.launch(prep, stream, self.front, self.bias, self.back)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    pp = PingPong(stream)
    for _ in range(2):
        pp.step(prep, stream)
    r = Recycled(stream)
    r.split(stream)
    r.step(prep, stream)
