"""A task made by `asyncio.create_task(submit(...))` runs its coroutine by the time `await task` returns: the op the
first task returns still writes `out` when the second task's launch writes it too.  The runtime raises in the second
task, and the error comes out of its `await`."""

import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def embed(tokens: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(tokens[i] * f32(0.5))


async def submit(prepared: simt.PreparedLaunch, tokens: sk.DeviceBuffer, out: sk.DeviceBuffer) -> sk.DeviceOp:
    await asyncio.sleep(0)
    return embed.launch_async(prepared, tokens, out)  # expect: E0499


async def serve(dev: sk.Device, stream: sk.Stream) -> None:
    prepared = embed.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    a = sk.to_device(np.ones(128, np.float32), stream)
    b = sk.to_device(np.full(128, 2.0, np.float32), stream)
    out = sk.zeros(128, f32, stream)
    first = asyncio.create_task(submit(prepared, a, out))
    second = asyncio.create_task(submit(prepared, b, out))
    op_a = await first
    op_b = await second
    for op in (op_a, op_b):
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    asyncio.run(serve(dev, dev.new_stream()))
