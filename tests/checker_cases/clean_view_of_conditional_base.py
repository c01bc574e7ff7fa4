"""The clean twin of `e0502_view_of_conditional_base`: each place the base may be is viewed disjointly from the
output (another buffer, or another range of `out`)."""

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


def main(flag: bool = True) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    out = sk.zeros(64, f32, stream)
    p = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    vecadd.launch(p, stream, (out if flag else a).view(32, 64), a.view(0, 32), out.view(0, 32))
