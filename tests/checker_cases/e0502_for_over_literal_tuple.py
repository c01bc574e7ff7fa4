"""A `for` over a literal tuple of places binds the target to those places: `for out, inp in ((x, x),)` passes
the same buffer as input and output."""

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
    for out, inp in ((x, y), (y, y)):
        vecadd.launch(prepared, stream, inp, b, out)  # expect: E0502
    for buf in [x, b]:
        vecadd.launch(prepared, stream, x, y, buf)  # expect: E0502
