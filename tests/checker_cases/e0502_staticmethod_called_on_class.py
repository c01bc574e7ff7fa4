"""A `@staticmethod` of a class of the module, called on the class's name, runs its body at the call: passing one
buffer as its input and its output makes its launch read what it writes (`E0502` at the call, where the runtime's
`AliasingError` comes from)."""

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
        vecadd.launch(prepared, stream, lhs, rhs, out)  # expect: E0502


def main() -> None:
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    Ops.add_into(b, a, b)
    Ops.add_into(a, a, b)  # expect: E0502

