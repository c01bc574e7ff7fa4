# fresh-expect: E0499 at line 25
# fresh-note: found since: a name bound once to asyncio.create_task(<call of a module async def>) and awaited once runs that call at its await (callables.awaited_task): the op the first task returns still borrows out when the second task's launch writes it
"""An async batching front end: two requests are submitted concurrently as asyncio tasks."""
import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def embed(tokens: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(tokens[i] * f32(0.01))


async def submit(prep: simt.PreparedLaunch, tokens: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32]) -> sk.DeviceOp:
    await asyncio.sleep(0)
    return embed.launch_async(prep, tokens, out)


async def serve(dev: sk.Device, stream: sk.Stream) -> None:
    n = 128
    prep = embed.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    req_a = sk.to_device(np.arange(n, dtype=np.float32), stream)
    req_b = sk.to_device(np.arange(n, dtype=np.float32)[::-1].copy(), stream)
    batch_out = sk.zeros(n, f32, stream)  # one shared output slot for the batch
    first = asyncio.create_task(submit(prep, req_a, batch_out))
    second = asyncio.create_task(submit(prep, req_b, batch_out))
    op_a = await first
    op_b = await second
    for op in (op_a, op_b):
        op.sync_on(stream)
    print(batch_out.to_numpy(stream)[:3])


if __name__ == "__main__":
    dev = sk.Device.cpu()
    asyncio.run(serve(dev, dev.new_stream()))
