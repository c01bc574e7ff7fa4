"""An object whose `__init__` stores a pending `launch_async` op (`self.op = k.launch_async(...)`) lends the
caller's buffers to that op until it runs: while the object is reachable (bound to a name, or held by
`contextlib.closing(...)` for the body of a `with` statement), moving its output is E0505."""

from contextlib import closing
from typing import Any

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


class AsyncAdd:
    def __init__(self, prepared: Any, stream: sk.Stream, a: Any, b: Any, out: Any) -> None:
        self.stream = stream
        self.op = vecadd.launch_async(prepared, a, b, out)

    def close(self) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


def named(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    a = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    job = AsyncAdd(prepared, stream, a, a, out)
    parts = out.partition((64,))  # expect: E0505
    job.close()
    print(parts)


def closed_on_exit(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    a = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    with closing(AsyncAdd(prepared, stream, a, a, out)):
        parts = out.partition((64,))  # expect: E0505
    print(parts)
