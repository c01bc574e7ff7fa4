"""A helper (or a nested function) returns a pending `launch_async` op, bound to `p`; `p` is run before it is
rebound to a new launch taking the same output buffer, or the new launch takes other buffers: nothing is borrowed
twice."""

from typing import Any

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


def pending_add(prep: Any, a: Any, b: Any, c: Any) -> Any:
    return vecadd.launch_async(prep, a, b, c)


def main(flag: bool = True) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    c = sk.zeros(32, f32, stream)
    d = sk.zeros(32, f32, stream)
    bufs = [a, b, c]

    def pending_into_d() -> Any:
        return vecadd.launch_async(prep, a, b, d)

    p = pending_add(prep, b, a, c)
    p.sync_on(stream)
    p = vecadd.launch_async(prep, bufs[1], a, c)
    p.sync_on(stream)
    q = pending_into_d()
    if flag:
        q.sync_on(stream)
        q = vecadd.launch_async(prep, a, a, c)
    q.sync_on(stream)
