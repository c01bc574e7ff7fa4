"""`stack.callback(pending.sync_on, stream)` of a `with contextlib.ExitStack() as stack:` syncs the pending launch
when the `with` statement is left, not where the callback is registered: the output is still lent to the launch for
the rest of the block."""

import contextlib
from contextlib import ExitStack

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


def imported(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    a = sk.to_device(np.ones(n, np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    with ExitStack() as stack:
        pending = vecadd.launch_async(prepared, a, a, c)
        stack.callback(pending.sync_on, stream)
        parts = c.partition((64,))  # expect: E0505
    print(parts)


def qualified(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    a = sk.to_device(np.ones(n, np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    with contextlib.ExitStack() as stack:
        pending = vecadd.launch_async(prepared, a, a, c)
        stack.callback(pending.sync_on, stream)
        print(pending)
    pending.sync_on(stream)  # expect: E0382
