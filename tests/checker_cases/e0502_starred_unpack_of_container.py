"""`first, *rest = bufs` of a list display binds `first` to the list's first buffer (and the display form too):
summing the rest into `acc` through `first` reads the buffer the launch writes (the runtime raises
`AliasingError`)."""

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


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    acc = sk.zeros(64, f32, stream)
    ones = sk.to_device(np.ones(64, np.float32), stream)
    twos = sk.to_device(np.full(64, 2.0, np.float32), stream)
    bufs = [acc, ones, twos]
    first, *rest = bufs
    for other in rest:
        vecadd.launch(prepared, stream, first, other, acc)  # expect: E0502
    head, *middle, last = acc, ones, twos
    vecadd.launch(prepared, stream, ones, twos, head)
    vecadd.launch(prepared, stream, ones, last, twos)  # expect: E0502
