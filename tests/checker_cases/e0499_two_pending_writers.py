"""A second pending `launch_async` writing the buffer the first one still borrows."""

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
    a = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    b = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    first = vecadd.launch_async(prepared, a, b, c)
    second = vecadd.launch_async(prepared, b, a, c)  # expect: E0499
    first.sync_on(stream)
    second.sync_on(stream)
