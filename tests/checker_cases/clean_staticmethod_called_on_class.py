"""The twin of e0502_staticmethod_called_on_class: every call of the static helper writes a buffer it does not
read; a class attribute that shadows nothing and a static method of another class with the same name stay
ordinary."""

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


dev = sk.Device.cpu()
stream = dev.new_stream()
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)


class Ops:
    @staticmethod
    def add_into(out: sk.DeviceBuffer[f32], lhs: sk.DeviceBuffer[f32], rhs: sk.DeviceBuffer[f32]) -> None:
        vecadd.launch(prepared, stream, lhs, rhs, out)

    @staticmethod
    def describe(out: sk.DeviceBuffer[f32], lhs: sk.DeviceBuffer[f32]) -> str:
        return f"{out} <- {lhs}"


def main() -> None:
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    Ops.add_into(c, a, b)
    Ops.add_into(a, c, b)
    print(Ops.describe(a, a))

