"""A nested function (a plain `def` called directly, or an `async def` run by `asyncio.run(step())`) launches with
names it captures (and its parameters): which of them are one buffer is the enclosing function's knowledge (`bufs[2]`
is `c`, `named["a"]` is `a`), so the call checks the nested launch's arguments against each other and reports the
conflict at the call, as rustc reports a closure's captures (the runtime raises `AliasingError` under that call)."""

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
        vecadd.launch(prep, stream, bufs[2], b, c)

    def inner() -> None:
        w = a if flag else b
        vecadd.launch(prep, stream, b, w, named["a"])

    def launch_with(u: sk.DeviceBuffer, v: sk.DeviceBuffer) -> None:
        vecadd.launch(prep, stream, u, v, c)

    asyncio.run(step())  # expect: E0502
    inner()  # expect: E0502
    launch_with(a, bufs[2])  # expect: E0502
