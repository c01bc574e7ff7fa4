"""A nested function rebinds a `nonlocal` name to one of the enclosing function's buffers, or to a view of one:
after the call the name is that buffer, and launches that only read it while writing another buffer are fine."""

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


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(32, f32, stream)

    def inner() -> None:
        nonlocal a
        a = c[0:32]

    def other() -> None:
        nonlocal b
        b = c

    inner()
    vecadd.launch(prep, stream, a, a, d)
    other()
    vecadd.launch(prep, stream, b.view(0, 32), a, d)
