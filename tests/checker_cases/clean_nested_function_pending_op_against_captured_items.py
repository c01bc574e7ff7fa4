"""A nested function's own pending `launch_async` op borrows some of the enclosing function's buffers (by a captured
name, an item of a captured container, or a parameter), and a launch in the nested function takes other buffers,
or the same one after the op ran: with the enclosing function's knowledge of which names are one buffer
(`named["b"]` is `b`, `bufs[2]` is `c`, `u` is `b` at the call), nothing overlaps."""

import asyncio

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
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    c = sk.zeros(32, f32, stream)
    d = sk.zeros(32, f32, stream)
    bufs = [a, b, c]
    named = {"a": a, "b": b, "c": c}

    def item_pending() -> None:
        p = vecadd.launch_async(prep, named["b"], a, d)
        vecadd.launch(prep, stream, a, b, c)
        p.sync_on(stream)

    def name_pending() -> None:
        p = vecadd.launch_async(prep, a, a, c)
        p.sync_on(stream)
        if flag:
            vecadd.launch(prep, stream, bufs[2], a, d)

    def param_pending(u: sk.DeviceBuffer) -> None:
        p = vecadd.launch_async(prep, u, a, d)
        try:
            vecadd.launch(prep, stream, a, a, named["c"])
        finally:
            p.sync_on(stream)

    async def step() -> None:
        await asyncio.sleep(0)
        q = vecadd.launch_async(prep, a, bufs[1], d)
        r = q.first()
        vecadd.launch(prep, stream, a, a, named["c"])
        r.sync_on(stream)

    item_pending()
    name_pending()
    param_pending(b)
    asyncio.run(step())
