"""A helper (or a nested function) returns a pending `launch_async` op, bound to `p`; `p` is then rebound to a new
launch that takes the same output buffer.  The new launch's arguments are evaluated while the first op is still
pending (its loans last while the op is reachable, not only while its name is read again), so the second borrow of
`c` is E0499 (the runtime raises `BorrowError` at the new launch), and the first op is dropped unrun (W0003)."""

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
    return vecadd.launch_async(prep, a, b, c)  # expect: W0003


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
        return vecadd.launch_async(prep, a, b, d)  # expect: W0003

    p = pending_add(prep, b, a, c)
    p = vecadd.launch_async(prep, bufs[1], a, c)  # expect: E0499
    p.sync_on(stream)
    q = pending_into_d()
    if flag:
        q = vecadd.launch_async(prep, a, a, d)  # expect: E0499
    q.sync_on(stream)
