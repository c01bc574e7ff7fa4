"""The clean twin of `e0502_starred_target_items`: the items a starred target collects are distinct from the
buffer each launch writes."""

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
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    first, *rest = [c, b, a]
    vecadd.launch(prepared, stream, rest[0], rest[1], first)
    *init, last = (a, b, c)
    vecadd.launch(prepared, stream, *init, last)
    _, *others = c, a
    for other in others:
        vecadd.launch(prepared, stream, other, b, c)
