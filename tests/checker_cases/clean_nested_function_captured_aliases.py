"""A nested function launches with names it captures from the enclosing function (and its parameters), each a different
buffer there (`bufs[0]` is `a`, `named["b"]` is `b`): the call checks the nested launch's arguments against each
other with the enclosing function's knowledge, and they do not overlap."""

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
    bufs = [a, b, c]
    named = {"a": a, "b": b}

    async def step() -> None:
        await asyncio.sleep(0)
        vecadd.launch(prep, stream, bufs[0], b, c)

    def inner() -> None:
        w = a if flag else named["a"]
        vecadd.launch(prep, stream, w, named["b"], c)

    def launch_with(u: sk.DeviceBuffer, v: sk.DeviceBuffer) -> None:
        vecadd.launch(prep, stream, u, v, c)

    asyncio.run(step())
    inner()
    launch_with(a, bufs[1])
