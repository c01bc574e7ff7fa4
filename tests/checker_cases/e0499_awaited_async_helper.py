"""Awaiting a call of an `async def` of the module runs its body there, so a pending `launch_async` op it returns
keeps its loans at the caller: `await asyncio.gather(...)` runs each coroutine in turn (the second op writing the
buffer the first still borrows), and an op bound by `op = await submit(...)` borrows until it is synced."""

import asyncio

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


async def submit(prepared: simt.PreparedLaunch, x: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32]) -> sk.DeviceOp:
    return vecadd.launch_async(prepared, x, x, out)  # expect: E0499


async def run(dev: sk.Device, stream: sk.Stream) -> None:
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    a = sk.to_device(np.ones(128, np.float32), stream)
    b = sk.to_device(np.full(128, 2.0, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    d = sk.zeros(128, f32, stream)
    ops = await asyncio.gather(submit(prepared, a, c), submit(prepared, b, c))
    for pending in ops:
        pending.sync_on(stream)
    op = await submit(prepared, a, d)
    vecadd.launch(prepared, stream, a, b, d)  # expect: E0499
    op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    asyncio.run(run(dev, dev.new_stream()))
