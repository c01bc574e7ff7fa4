"""The look-alike of `e0502_for_over_literal_tuple`: every pair of the literal tuple is two distinct buffers."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    x = sk.zeros(n, f32, stream)
    y = sk.zeros(n, f32, stream)
    b = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    for out, inp in ((x, y), (y, x)):
        vecadd.launch(prepared, stream, inp, b, out)
    for buf in [x, y]:
        vecadd.launch(prepared, stream, b, b, buf)
