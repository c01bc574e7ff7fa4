"""A class's `__init__` stores a dict comprehension of prepared launches, one per kernel of a display the enum's
members are zipped with (`{op: kernel.prepare(...) for op, kernel in zip(Op, (vecadd, saxpy))}`): launching
`vecadd`, which prepared one of them, with the item a parameter picks may be right, and is at run time."""

from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


class Op(Enum):
    ADD = "add"
    SAXPY = "saxpy"


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=32)
def saxpy(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(2.0 * a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=32)
def vecsub(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] - b[i])


class Arith:
    def __init__(self, dev: sk.Device, n: int) -> None:
        cfg = simt.LaunchConfig1D.for_len(n, block=32)
        self.prepared = {op: kernel.prepare(cfg, dev) for op, kernel in zip(Op, (vecadd, saxpy), strict=True)}

    def run(
        self, op: Op, stream: sk.Stream, a: sk.DeviceBuffer[f32], b: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32]
    ) -> None:
        vecadd.launch(self.prepared[op], stream, a, b, out)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    ones = sk.to_device(np.ones(32, np.float32), stream)
    Arith(dev, 32).run(Op.ADD, stream, ones, ones, sk.zeros(32, f32, stream))
