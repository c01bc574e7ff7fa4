"""A class's `__init__` stores a dict of prepared launches keyed by `Enum` members (both prepared for `vecadd`, a
typo) and another method launches `vecsub` with the item a parameter picks: every item's brand is `vecadd`'s, so
the launch is a mismatch whatever the key (`BrandError` at run time)."""

from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


class Op(Enum):
    ADD = "add"
    SUB = "sub"


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
        cfg = simt.LaunchConfig1D.for_len(n, block=32)
        self.prepared = {Op.ADD: vecadd.prepare(cfg, dev), Op.SUB: vecadd.prepare(cfg, dev)}

    def run(
        self, op: Op, stream: sk.Stream, a: sk.DeviceBuffer[f32], b: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32]
    ) -> None:
        if op is Op.SUB:
            vecsub.launch(self.prepared[op], stream, a, b, out)  # expect: E0308
        else:
            vecadd.launch(self.prepared[op], stream, a, b, out)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    ones = sk.to_device(np.ones(32, np.float32), stream)
    Arith(dev, 32).run(Op.SUB, stream, ones, ones, sk.zeros(32, f32, stream))
