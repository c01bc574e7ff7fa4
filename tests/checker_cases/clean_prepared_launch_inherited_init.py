"""A base class caches a prepared launch in `__init__` (`self.add_launch = vecadd.prepare(...)`) and a subclass that
inherits that `__init__` launches the same kernel with it in its own method: the brands match (the twin of
e0308_prepared_launch_inherited_init)."""

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


@simt.kernel
@simt.launch_contract(block=32)
def vecsub(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] - b[i])


class Arith:
    def __init__(self, dev: sk.Device, n: int) -> None:
        self.add_launch = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=32), dev)

    def add(
        self, stream: sk.Stream, a: sk.DeviceBuffer[f32], b: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32]
    ) -> None:
        vecadd.launch(self.add_launch, stream, a, b, out)


class Subtracting(Arith):
    def sub(
        self, stream: sk.Stream, a: sk.DeviceBuffer[f32], b: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32]
    ) -> None:
        vecadd.launch(self.add_launch, stream, a, b, out)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    ones = sk.to_device(np.ones(32, np.float32), stream)
    Subtracting(dev, 32).sub(stream, ones, ones, sk.zeros(32, f32, stream))
