"""The look-alike of `e0505_exitstack_callback_runs_on_exit`: the callback the `ExitStack` runs on exit syncs the
pending launch, so the output is free once the `with` statement is left."""

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
        print(a.to_numpy(stream)[:2])
    parts = c.partition((64,))
    print(parts)


def qualified(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    a = sk.to_device(np.ones(n, np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    with contextlib.ExitStack() as stack:
        pending = vecadd.launch_async(prepared, a, a, c)
        stack.callback(pending.sync_on, stream)
    print(c.to_numpy(stream)[:2])


dev = sk.Device.cpu()
imported(dev, dev.new_stream(), 256)
qualified(dev, dev.new_stream(), 256)
